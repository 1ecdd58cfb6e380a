/**
 * Completing an order-ahead order (POST order_completion_url): charges through the SAME money path as
 * in-store completion (orders/settlement.ts), with the order-ahead order itself as the settlement
 * source: `externally_valid` -> `completed`, guarded by the settlement's lease and committed in the
 * money transaction, so an order is completed (and charged) at most once however many requests race.
 * The completed order keeps the proposed order's uuid, so the user's order list shows the same uuid.
 *
 * The completion takes no cart: it settles exactly what was validated and priced. A changed cart
 * needs a new start. Balances may have changed since validation: the merchant-funded credit applied
 * is what is still available (gift card value is applied by the settlement from the current balance).
 */
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { notFound, unprocessable } from '#shared/errors.ts';
import { creditAccountKey, getBalance } from '#shared/domain/ledger.ts';
import type { OrderRecord, OrderTerms } from '#shared/domain/orders/record.ts';
import { orderParties, settleOrder } from '#shared/domain/orders/settlement.ts';
import type { OrderFee, OrderItem } from '#shared/schemas/money.ts';
import { getProposedOrder } from './orders.ts';
import type { PricedLine, PricedOrder } from './pricing.ts';

const NOT_READY = () => unprocessable('order', 'base', 'This order cannot be completed: it is still being checked or was not valid. Start it again.', 'not_completable');

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
  if (priced.delivery_fee_amount > 0) list.push({ name: 'Delivery fee', type: 'delivery', charged_price_amount: priced.delivery_fee_amount, collector: 'merchant' });
  if (priced.service_fee_amount > 0) list.push({ name: 'Service fee', type: 'custom', charged_price_amount: priced.service_fee_amount, collector: 'merchant' });
  return list;
}

/** The priced order's terms, with the credit still available applied (in-store rule 1: spend includes fees, tax and the discount, never the tip). */
function termsOf(priced: PricedOrder, creditBalance: number): OrderTerms {
  return {
    spend_amount: priced.subtotal + priced.delivery_fee_amount + priced.service_fee_amount + priced.tax_amount,
    tax_amount: priced.tax_amount,
    tip_amount: priced.tip_amount,
    applied_discount_amount: Math.min(priced.credit_discount_amount, creditBalance),
    exemption_amount: 0,
    partial_authorization_allowed: false,
    discount_only: false,
    items: priced.items.map(orderItem),
    fees: fees(priced),
  };
}

export async function completeOrderAhead(input: { uuid: string; userId: number; respond?: (order: OrderRecord) => TransactItem | undefined }): Promise<OrderRecord> {
  const order = await getProposedOrder(input.uuid);
  if (!order || order.user_id !== input.userId) throw notFound();
  if (order.state !== 'externally_valid' && order.state !== 'completed') throw NOT_READY();
  const priced = order.priced!;
  const [credit, [locationItem, merchantItem]] = await Promise.all([
    getBalance(creditAccountKey(order.user_id, priced.merchant_id)),
    readItems([keys.location(priced.location_id), keys.merchant(priced.merchant_id)], { consistent: true }),
  ]);
  return settleOrder({
    kind: 'order_ahead',
    source: { key: keys.orderAheadOrder(order.uuid), fromState: 'externally_valid', toState: 'completed', state: order.state, uuid: order.uuid },
    orderUuid: order.uuid,
    ...orderParties(priced.merchant_id, locationItem, merchantItem),
    userId: order.user_id,
    appId: order.app_id,
    promotedCardId: null,
    terms: termsOf(priced, credit.balance),
    respond: input.respond,
  });
}

/** The completion's answer: the status object clients parse (order_url, state, uuid), plus the amounts settled. */
export function serializeCompletion(order: OrderRecord, baseUrl: string) {
  return {
    order: {
      order_url: `${baseUrl}/v15/orders/${order.uuid}`,
      state: 'completed',
      uuid: order.uuid,
      gift_card_total_amount: order.gift_card_total_amount,
      gift_card_tip_amount: order.gift_card_tip_amount,
      spend_amount: order.spend_amount,
      tip_amount: order.tip_amount,
      total_amount: order.spend_amount + order.tip_amount,
    },
  };
}
