/**
 * The cart a client sends to start an order (and to ask for upsells): parsed loosely for types
 * (cartBodySchema, shared/schemas/order-ahead.ts), then checked here for the rules that make a cart
 * malformed, so a start answers every such problem at once (422) before anything is stored. Whether the cart can actually be ordered (menu, hours, address,
 * delivery area) is the state machine's validation, reported on poll.
 */
import { errorDetail, type ErrorDetail } from '#shared/errors.ts';
import type { CartBody } from '#shared/schemas/order-ahead.ts';
import { MAX_LINE_QUANTITY } from '#shared/schemas/vocabularies.ts';

export const ORDER_AHEAD_FULFILLMENT_TYPES = ['pickup', 'delivery'] as const;
export type OrderAheadFulfillmentType = (typeof ORDER_AHEAD_FULFILLMENT_TYPES)[number];

export interface CartLine {
  id: number;
  quantity: number;
  upsell_id: number | null;
  special_instructions: string | null;
  option_ids: number[];
}

/** A well-formed cart, as stored on the order and read by validation. */
export interface Cart {
  location_id: number;
  fulfillment_type: OrderAheadFulfillmentType;
  /** ISO 8601 as sent; null means as soon as possible. */
  desired_ready_time: string | null;
  delivery_address_id: number | null;
  items: CartLine[];
  upsell_ids: number[];
  special_instructions: string | null;
  tip_amount: number | null;
  tip_percent: number | null;
}

function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}

/** The malformed-cart rules of the contract; every problem is reported, in field order. */
export function cartProblems(body: CartBody, options: { requireItems: boolean }): ErrorDetail[] {
  const order = body.order;
  const problems: ErrorDetail[] = [];
  if (order.location_id === undefined || order.location_id === null) problems.push(errorDetail('order', 'location_id', "Location can't be blank", 'missing'));
  const conveyance = order.conveyance;
  if (!conveyance) problems.push(errorDetail('order', 'conveyance', "Conveyance can't be blank", 'missing'));
  else {
    const type = conveyance.fulfillment_type;
    if (type === undefined || type === null) problems.push(errorDetail('order', 'conveyance.fulfillment_type', "Fulfillment type can't be blank", 'missing'));
    else if (!(ORDER_AHEAD_FULFILLMENT_TYPES as readonly string[]).includes(type)) {
      problems.push(errorDetail('order', 'conveyance.fulfillment_type', 'Fulfillment type must be pickup or delivery', 'invalid'));
    } else if (type === 'delivery' && (conveyance.delivery_address_id === undefined || conveyance.delivery_address_id === null)) {
      problems.push(errorDetail('order', 'conveyance.delivery_address_id', "Delivery address can't be blank for a delivery order", 'missing'));
    }
    if (blankToNull(conveyance.desired_ready_time) !== null && Number.isNaN(Date.parse(conveyance.desired_ready_time!))) {
      problems.push(errorDetail('order', 'conveyance.desired_ready_time', 'Desired ready time must be an ISO 8601 time', 'invalid'));
    }
  }
  const items = order.items ?? [];
  if (options.requireItems && items.length === 0) problems.push(errorDetail('order', 'items', "Items can't be blank", 'missing'));
  items.forEach((line, index) => {
    const quantity = line.item.quantity;
    if (quantity === undefined) problems.push(errorDetail('order', 'items', `Item ${index + 1}: quantity can't be blank`, 'cart_invalid'));
    else if (quantity < 1) problems.push(errorDetail('order', 'items', `Item ${index + 1}: quantity must be at least 1`, 'cart_invalid'));
    else if (quantity > MAX_LINE_QUANTITY)
      problems.push(errorDetail('order', 'items', `Item ${index + 1}: quantity must be at most ${MAX_LINE_QUANTITY}`, 'cart_invalid'));
  });
  return problems;
}

/** The cart of a body that has no problems (call cartProblems first). */
export function toCart(body: CartBody): Cart {
  const order = body.order;
  const fulfillmentType = order.conveyance!.fulfillment_type as OrderAheadFulfillmentType;
  return {
    location_id: order.location_id!,
    fulfillment_type: fulfillmentType,
    desired_ready_time: blankToNull(order.conveyance!.desired_ready_time),
    // The contract: ignored for pickup.
    delivery_address_id: fulfillmentType === 'delivery' ? (order.conveyance!.delivery_address_id ?? null) : null,
    items: (order.items ?? []).map(({ item }) => ({
      id: item.id,
      quantity: item.quantity ?? 1,
      upsell_id: item.upsell_id ?? null,
      special_instructions: blankToNull(item.special_instructions),
      option_ids: item.option_ids ?? [],
    })),
    upsell_ids: [...new Set(order.upsell_ids ?? [])],
    special_instructions: blankToNull(order.special_instructions),
    tip_amount: order.tip_amount ?? null,
    tip_percent: order.tip_percent ?? null,
  };
}
