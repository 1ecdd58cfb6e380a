/**
 * Pricing of a validated cart, in integer cents. The rules (docs/order-ahead.md, "Pricing"):
 * - line = (item price + charged option prices) x quantity; the `free_choices` most expensive
 *   selections of an option group cost nothing; subtotal = sum of lines.
 * - delivery fee (delivery only), service fee = merchant's + provider's.
 * - tax = tax rate x (subtotal + delivery fee + service fee), rounded half up; merchant-funded
 *   credit and gift card value are tenders, so they do not lower the tax.
 * - tip = tip_amount if sent, else tip_percent of the subtotal (rounded half up), else 0.
 * - discount = the user's merchant-funded credit plus gift card value at the merchant, at most the
 *   pre-tax amount (subtotal + fees): it never pays tax or tip.
 * - total = subtotal + fees + tax + tip - discount; spend = total - tax - tip.
 */
import type { OrderingProviderName } from '#shared/ordering/index.ts';
import type { PollUpsell } from './upsells.ts';

export interface SelectedOption {
  id: number;
  name: string;
  /** Unit price of the option. */
  price_amount: number;
  quantity: number;
  /** How many of `quantity` were free. */
  free_quantity: number;
}

export interface PricedLine {
  id: number;
  name: string;
  description: string;
  sku: string | null;
  upc: string | null;
  category: string | null;
  option_ids: number[];
  /** Unit price of the item itself, without options (as on the menu). */
  price_amount: number;
  quantity: number;
  selected_options: SelectedOption[];
  special_instructions: string | null;
  upsell_id: number | null;
  /** (price_amount + charged options) x quantity. */
  line_total_amount: number;
}

export interface PricedOrder extends Charges {
  merchant_id: number;
  merchant_name: string;
  location_id: number;
  /** The location's phone (the completed order shows it), its menu (suggested orders link it) and where its orders go. */
  location_phone?: string | null;
  menu_id?: number;
  ordering_provider?: OrderingProviderName;
  location_title: string;
  location_subtitle: string;
  latitude: number;
  longitude: number;
  fulfillment_type: 'pickup' | 'delivery';
  delivery_address_id: number | null;
  desired_ready_time: string | null;
  allows_special_instructions: boolean;
  special_instructions_character_limit: number;
  special_instructions: string | null;
  instructions: string | null;
  available_at: string[];
  soonest_available_at: string;
  items: PricedLine[];
  displayed_upsell_ids: number[];
  upsell: PollUpsell | null;
  validated_at: string;
}

export function roundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((numerator * 2 + denominator) / (denominator * 2));
}

export function lineTotal(line: Pick<PricedLine, 'price_amount' | 'quantity' | 'selected_options'>): number {
  const options = line.selected_options.reduce((sum, option) => sum + option.price_amount * (option.quantity - option.free_quantity), 0);
  return (line.price_amount + options) * line.quantity;
}

export interface Charges {
  subtotal: number;
  delivery_fee_amount: number;
  service_fee_amount: number;
  provider_service_fee_amount: number;
  tax_amount: number;
  tip_amount: number;
  /** Parts of discount_amount: merchant-funded credit first, then gift card value. */
  credit_discount_amount: number;
  gift_card_discount_amount: number;
  discount_amount: number;
  spend_amount: number;
  total_amount: number;
}

export function priceCharges(input: {
  lineTotals: number[];
  deliveryFee: number;
  merchantServiceFee: number;
  providerServiceFee: number;
  taxRateBasisPoints: number;
  tipAmount: number | null;
  tipPercent: number | null;
  creditAvailable: number;
  giftCardAvailable: number;
}): Charges {
  const subtotal = input.lineTotals.reduce((sum, total) => sum + total, 0);
  const serviceFee = input.merchantServiceFee + input.providerServiceFee;
  const preTax = subtotal + input.deliveryFee + serviceFee;
  const tax = roundHalfUp(preTax * input.taxRateBasisPoints, 10_000);
  const tip = input.tipAmount ?? (input.tipPercent !== null ? roundHalfUp(Math.round(subtotal * input.tipPercent * 100), 10_000) : 0);
  const credit = Math.min(Math.max(0, input.creditAvailable), preTax);
  const giftCard = Math.min(Math.max(0, input.giftCardAvailable), preTax - credit);
  const discount = credit + giftCard;
  const total = preTax + tax + tip - discount;
  return {
    subtotal,
    delivery_fee_amount: input.deliveryFee,
    service_fee_amount: serviceFee,
    provider_service_fee_amount: input.providerServiceFee,
    tax_amount: tax,
    tip_amount: tip,
    credit_discount_amount: credit,
    gift_card_discount_amount: giftCard,
    discount_amount: discount,
    spend_amount: total - tax - tip,
    total_amount: total,
  };
}
