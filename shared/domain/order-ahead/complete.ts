/**
 * Charging an order-ahead order (the completion workflow's `charge` step, fulfilment.ts): the SAME money
 * path as in-store completion (orders/settlement.ts), with the order-ahead order itself as the settlement
 * source: `charging` -> `submitted`, guarded by the settlement's lease and committed in the money
 * transaction, so an order is charged at most once however often the step runs. The settled order keeps
 * the order-ahead order's uuid, so the user's order list shows the same uuid.
 *
 * It settles exactly what was validated and priced; a changed cart needs a new start. Balances may have
 * changed since validation: the merchant-funded credit applied is what is still available when the
 * settlement holds the customer (`discountUpToAvailable`: read any earlier, another order of the same
 * customer could spend it in between and this order would be rejected), and gift card value is applied by
 * the settlement from the current balance.
 */
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import type { LocationItem } from '#shared/domain/merchants/locations.ts';
import type { OrderRecord, OrderTerms } from '#shared/domain/orders/record.ts';
import { orderParties, settleOrder } from '#shared/domain/orders/settlement.ts';
import type { OrderFee, OrderItem } from '#shared/schemas/money.ts';
import type { OrderAheadRecord } from './orders.ts';
import type { PricedLine, PricedOrder } from './pricing.ts';

function orderItem(line: PricedLine): OrderItem {
  return {
    name: line.name,
    description: line.description,
    quantity: line.quantity,
    charged_price_amount: line.line_total_amount,
    standard_price_amount: line.line_total_amount,
    sku: line.sku,
    upc: line.upc,
    category: line.category,
    children: line.selected_options.map((option) => ({
      name: option.name,
      description: '',
      quantity: option.quantity,
      charged_price_amount: option.price_amount * (option.quantity - option.free_quantity) * line.quantity,
      standard_price_amount: option.price_amount * option.quantity * line.quantity,
    })),
  };
}

function fees(priced: PricedOrder): OrderFee[] {
  const list: OrderFee[] = [];
  if (priced.delivery_fee_amount > 0)
    list.push({ name: 'Delivery fee', type: 'delivery', charged_price_amount: priced.delivery_fee_amount, collector: 'merchant' });
  if (priced.service_fee_amount > 0) list.push({ name: 'Service fee', type: 'custom', charged_price_amount: priced.service_fee_amount, collector: 'merchant' });
  return list;
}

/** The priced order's terms, the quoted credit at most (in-store rule 1: spend includes fees, tax and the discount, never the tip). */
function termsOf(priced: PricedOrder): OrderTerms {
  return {
    spend_amount: priced.subtotal + priced.delivery_fee_amount + priced.service_fee_amount + priced.tax_amount,
    tax_amount: priced.tax_amount,
    tip_amount: priced.tip_amount,
    // Lowered by the settlement to the credit available then (none when a refund's claw-back left it negative).
    applied_discount_amount: Math.max(0, priced.credit_discount_amount),
    exemption_amount: 0,
    partial_authorization_allowed: false,
    discount_only: false,
    items: priced.items.map(orderItem),
    fees: fees(priced),
  };
}

/** The settlement's source: the order-ahead order, from `charging` (taken by the workflow) to `submitted` (charged). */
export function settlementSource(order: Pick<OrderAheadRecord, 'uuid' | 'state'>) {
  return { key: keys.orderAheadOrder(order.uuid), fromState: 'charging', toState: 'submitted', state: order.state, uuid: order.uuid };
}

/**
 * Settles an order in `charging` (throws the settlement's ApiError for a decline or a refused source).
 * Returns the settled order and the location it was settled at (the completed order shows its phone).
 */
export async function chargeOrderAhead(order: OrderAheadRecord): Promise<{ settled: OrderRecord; location: LocationItem }> {
  const priced = order.priced!;
  const [locationItem, merchantItem] = await readItems([keys.location(priced.location_id), keys.merchant(priced.merchant_id)], { consistent: true });
  const parties = orderParties(priced.merchant_id, locationItem, merchantItem);
  const settled = await settleOrder({
    kind: 'order_ahead',
    source: settlementSource(order),
    orderUuid: order.uuid,
    ...parties,
    userId: order.user_id,
    appId: order.app_id,
    promotedCardId: null,
    terms: termsOf(priced),
    discountUpToAvailable: true,
  });
  return { settled, location: parties.location };
}
