/** The poll response's `{"order": {...}}`: every field of the contract's poll table. */
import type { OrderAheadRecord } from './orders.ts';
import type { PricedLine, PricedOrder } from './pricing.ts';
import { orderCompletionUrl } from './start.ts';

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

export function serializePolledOrder(order: OrderAheadRecord & { priced: PricedOrder }, baseUrl: string) {
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
