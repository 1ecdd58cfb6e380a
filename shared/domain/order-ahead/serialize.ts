/**
 * The order-ahead order as the API shows it to the user's app: the poll's `{"order": {...}}` (every field of
 * the contract's poll table), the completed order, and their links. Imports types only, so the modules that
 * write orders (and their events, outcomes.ts) can use it without an import cycle.
 */
import type { OrderAheadRecord } from './record.ts';
import type { PricedLine, PricedOrder } from './pricing.ts';

export function orderUrl(baseUrl: string, uuid: string): string {
  return `${baseUrl}/v15/order_ahead/orders/${uuid}`;
}

export function orderCompletionUrl(baseUrl: string, uuid: string): string {
  return `${orderUrl(baseUrl, uuid)}/complete`;
}

/** The completed order's address: polled by clients (docs: GET /v15/order_ahead/orders/:uuid/complete). */
export function completedOrderUrl(baseUrl: string, uuid: string): string {
  return `${baseUrl}/v15/order_ahead/orders/${uuid}/complete`;
}

function selectedOptionsDescription(line: PricedLine): string {
  return line.selected_options.map((option) => (option.quantity > 1 ? `${option.name} x${option.quantity}` : option.name)).join(', ');
}

export function serializeLine(line: PricedLine) {
  return {
    item: {
      id: line.id,
      name: line.name,
      option_ids: line.option_ids,
      price_amount: line.price_amount,
      quantity: line.quantity,
      selected_options: line.selected_options.map((option) => ({
        option: { id: option.id, free_quantity: option.free_quantity, name: option.name, price_amount: option.price_amount, quantity: option.quantity },
      })),
      selected_options_description: selectedOptionsDescription(line),
      special_instructions: line.special_instructions,
      upsell_id: line.upsell_id,
    },
  };
}

export function serializePolledOrder(order: Pick<OrderAheadRecord, 'uuid' | 'state'> & { priced: PricedOrder }, baseUrl: string) {
  const priced = order.priced;
  return {
    order: {
      allows_special_instructions: priced.allows_special_instructions,
      special_instructions_character_limit: priced.special_instructions_character_limit,
      available_at: priced.available_at,
      soonest_available_at: priced.soonest_available_at,
      conveyance: { fulfillment_type: priced.fulfillment_type, desired_ready_time: priced.desired_ready_time, delivery_address_id: priced.delivery_address_id },
      delivery_fee_amount: priced.delivery_fee_amount,
      displayed_upsell_ids: priced.displayed_upsell_ids,
      discount_amount: priced.discount_amount,
      instructions: priced.instructions,
      items: priced.items.map(serializeLine),
      latitude: priced.latitude,
      longitude: priced.longitude,
      location_id: priced.location_id,
      location_title: priced.location_title,
      location_subtitle: priced.location_subtitle,
      merchant_name: priced.merchant_name,
      order_completion_url: orderCompletionUrl(baseUrl, order.uuid),
      provider_service_fee_amount: priced.provider_service_fee_amount,
      service_fee_amount: priced.service_fee_amount,
      special_instructions: priced.special_instructions,
      spend_amount: priced.spend_amount,
      state: order.state,
      subtotal: priced.subtotal,
      tax_amount: priced.tax_amount,
      tip_amount: priced.tip_amount,
      total_amount: priced.total_amount,
      upsell: priced.upsell,
      uuid: order.uuid,
    },
  };
}

/** The completed order (O4 200): every field the iOS SDK reads, with the docs' fields around them. */
export function serializeCompletedOrder(order: Pick<OrderAheadRecord, 'uuid' | 'state' | 'priced' | 'completion'>, baseUrl: string) {
  const priced = order.priced!;
  const done = order.completion!;
  const delivery = priced.fulfillment_type === 'delivery';
  return {
    order: {
      conveyance: { delivery_address_id: priced.delivery_address_id, desired_ready_time: priced.desired_ready_time, fulfillment_type: priced.fulfillment_type },
      delivery_fee_amount: priced.delivery_fee_amount,
      delivery_instructions: delivery ? priced.instructions : null,
      delivery_uuid: null,
      discount_amount: done.discount_amount,
      instructions: priced.instructions ?? '',
      items: priced.items.map(serializeLine),
      latitude: priced.latitude,
      longitude: priced.longitude,
      location_id: priced.location_id,
      location_subtitle: priced.location_subtitle,
      location_title: priced.location_title,
      merchant_name: priced.merchant_name,
      order_number: done.order_number,
      order_url: completedOrderUrl(baseUrl, order.uuid),
      phone: done.phone,
      ready_at: done.ready_at,
      service_fee_amount: priced.service_fee_amount,
      special_instructions: priced.special_instructions,
      spend_amount: done.spend_amount,
      state: order.state,
      subtotal: priced.subtotal,
      tax_amount: priced.tax_amount,
      tip_amount: done.tip_amount,
      total_amount: done.total_amount,
      uuid: order.uuid,
    },
  };
}
