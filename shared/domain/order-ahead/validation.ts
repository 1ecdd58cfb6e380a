/**
 * Validation of a proposed order, run by the state machine's Task (functions/order-ahead-validate.ts):
 * checks that the cart can be ordered now (location, fulfillment, menu, options, hours, address,
 * delivery area, instructions, ready time, tip) and prices it. It only reads; the state machine's
 * next Task records the outcome (finishValidation), so a retried validation has no side effects.
 */
import { errorDetail, type ErrorDetail } from '#shared/errors.ts';
import { creditAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { UserAddress } from '#shared/domain/identity/addresses.ts';
import { deliversTo, getLocation, openState, type LocationItem } from '#shared/domain/merchants/locations.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';
import { isoSeconds } from '#shared/time.ts';
import type { Cart, CartLine } from './cart.ts';
import { findMenuItem, freeQuantities, getMenu, itemAvailableAt, optionGroupOf, type MenuOption, type MenuRecord } from './menu.ts';
import { getProposedOrder } from './orders.ts';
import { lineTotal, priceCharges, type PricedLine, type PricedOrder, type SelectedOption } from './pricing.ts';
import { eligibleUpsell, ordersCountForSegments, pollUpsell } from './upsells.ts';

export type ValidationOutcome = { valid: true; priced: PricedOrder } | { valid: false; errors: ErrorDetail[] };

const SLOT_MINUTES = 15;
const SOONEST_ROUNDING_MINUTES = 5;
const MINUTE_MS = 60_000;

const cartInvalid = (message: string) => errorDetail('order', 'items', message, 'cart_invalid');

function isClosedAt(location: LocationItem, instant: Date): boolean {
  // No posted hours means the merchant did not restrict them: treated as open.
  return openState(location, instant).open_state === 'closed';
}

/**
 * Ready times offered: the soonest (now + the location's estimate, + delivery time, rounded up to
 * 5 minutes), then every quarter hour up to the menu's horizon when the location supports scheduling;
 * only times when the location is open and every cart item can be ordered.
 */
export function readyTimes(location: LocationItem, menu: MenuRecord, cart: Pick<Cart, 'fulfillment_type' | 'items'>, now: Date): Date[] {
  const leadMinutes = location.ready_time_estimate_in_minutes + (cart.fulfillment_type === 'delivery' ? menu.settings.delivery_minutes : 0);
  const rounding = SOONEST_ROUNDING_MINUTES * MINUTE_MS;
  const soonest = new Date(Math.ceil((now.getTime() + leadMinutes * MINUTE_MS) / rounding) * rounding);
  const candidates = [soonest];
  if (location.supports_scheduling) {
    const slot = SLOT_MINUTES * MINUTE_MS;
    const horizon = now.getTime() + menu.settings.scheduling_horizon_minutes * MINUTE_MS;
    for (let time = Math.floor(soonest.getTime() / slot) * slot + slot; time <= horizon; time += slot) candidates.push(new Date(time));
  }
  const entries = cart.items.map((line) => findMenuItem(menu, line.id)).filter((entry) => entry !== undefined);
  return candidates.filter((instant) => !isClosedAt(location, instant) && entries.every((entry) => itemAvailableAt(menu, entry, instant)));
}

function checkLine(menu: MenuRecord, line: CartLine, index: number, at: Date, errors: ErrorDetail[]): PricedLine | undefined {
  const label = `Item ${index + 1}`;
  const entry = findMenuItem(menu, line.id);
  if (!entry) {
    errors.push(cartInvalid(`${label}: item ${line.id} is not on the menu`));
    return undefined;
  }
  const { item, category } = entry;
  if (!itemAvailableAt(menu, entry, at)) {
    errors.push(cartInvalid(`${label}: ${item.name} is not available at that time`));
    return undefined;
  }
  if (line.upsell_id !== null && !menu.upsells.some((upsell) => upsell.id === line.upsell_id)) {
    errors.push(cartInvalid(`${label}: upsell ${line.upsell_id} does not exist`));
  }
  const counts = new Map<number, number>();
  for (const optionId of line.option_ids) counts.set(optionId, (counts.get(optionId) ?? 0) + 1);
  const selections = new Map<number, { option: MenuOption; quantity: number }[]>();
  for (const [optionId, quantity] of counts) {
    const found = optionGroupOf(item, optionId);
    if (!found) {
      errors.push(cartInvalid(`${label}: option ${optionId} is not an option of ${item.name}`));
      continue;
    }
    if (!found.option.available) errors.push(cartInvalid(`${label}: ${found.option.name} is not available`));
    const list = selections.get(found.group.id) ?? [];
    list.push({ option: found.option, quantity });
    selections.set(found.group.id, list);
  }
  const selected: SelectedOption[] = [];
  for (const group of item.option_groups) {
    const chosen = selections.get(group.id) ?? [];
    const total = chosen.reduce((sum, selection) => sum + selection.quantity, 0);
    if (total < group.minimum_choices) errors.push(cartInvalid(`${label}: choose at least ${group.minimum_choices} of ${group.name}`));
    if (group.maximum_choices !== null && total > group.maximum_choices)
      errors.push(cartInvalid(`${label}: choose at most ${group.maximum_choices} of ${group.name}`));
    const free = freeQuantities(group, chosen);
    for (const { option, quantity } of chosen) {
      selected.push({ id: option.id, name: option.name, price_amount: option.price_amount, quantity, free_quantity: free.get(option.id) ?? 0 });
    }
  }
  if (line.special_instructions !== null) {
    // The item's own rule where the menu gives one, else the menu's.
    const allowed = item.allows_special_instructions ?? menu.settings.allows_special_instructions;
    const limit = item.special_instructions_character_limit ?? menu.settings.special_instructions_character_limit;
    if (!allowed) errors.push(errorDetail('order', 'items', `${label}: special instructions are not accepted`, 'special_instructions_not_allowed'));
    else if (line.special_instructions.length > limit) {
      errors.push(errorDetail('order', 'items', `${label}: special instructions are limited to ${limit} characters`, 'too_long'));
    }
  }
  const priced = {
    id: item.id,
    name: item.name,
    description: item.description,
    sku: item.sku,
    upc: item.upc,
    category: category.name,
    option_ids: line.option_ids,
    price_amount: item.price_amount,
    quantity: line.quantity,
    selected_options: selected,
    special_instructions: line.special_instructions,
    upsell_id: line.upsell_id,
  };
  return { ...priced, line_total_amount: lineTotal(priced) };
}

async function deliveryAddressProblem(userId: number, addressId: number, location: LocationItem): Promise<ErrorDetail | undefined> {
  const address = await UserAddress.at(userId, addressId).get({ consistent: false });
  if (!address) return errorDetail('order', 'conveyance.delivery_address_id', 'Delivery address not found.', 'not_found');
  if (typeof address.latitude !== 'number' || typeof address.longitude !== 'number') {
    return errorDetail(
      'order',
      'conveyance.delivery_address_id',
      'This address has no map position; add latitude and longitude to deliver to it.',
      'not_locatable',
    );
  }
  if (!deliversTo(location, { lat: address.latitude, lng: address.longitude })) {
    return errorDetail('order', 'conveyance.delivery_address_id', 'This address is outside the delivery area.', 'outside_delivery_area');
  }
  return undefined;
}

export async function validateCart(input: { userId: number; cart: Cart; now?: Date }): Promise<ValidationOutcome> {
  const { cart, userId } = input;
  const now = input.now ?? new Date();
  const [location, menu] = await Promise.all([getLocation(cart.location_id), getMenu(cart.location_id)]);
  if (!location || !menu)
    return { valid: false, errors: [errorDetail('order', 'location_id', 'This location does not take order ahead orders.', 'not_found')] };
  if (!location.fulfillment_types.includes(cart.fulfillment_type)) {
    return {
      valid: false,
      errors: [errorDetail('order', 'conveyance.fulfillment_type', `This location does not offer ${cart.fulfillment_type}.`, 'fulfillment_unavailable')],
    };
  }
  const errors: ErrorDetail[] = [];
  const [merchant, addressProblem, credit, giftCard, ordersCount] = await Promise.all([
    getMerchant(location.merchant_id),
    cart.fulfillment_type === 'delivery' ? deliveryAddressProblem(userId, cart.delivery_address_id!, location) : undefined,
    getBalance(creditAccountKey(userId, location.merchant_id)),
    getBalance(giftCardAccountKey(userId, location.merchant_id)),
    ordersCountForSegments(menu, userId),
  ]);
  if (addressProblem) errors.push(addressProblem);

  const times = readyTimes(location, menu, cart, now);
  let readyAt: Date | undefined = times[0];
  if (cart.desired_ready_time !== null) {
    const desired = Date.parse(cart.desired_ready_time);
    readyAt = times.find((time) => time.getTime() === desired);
    if (!readyAt)
      errors.push(errorDetail('order', 'conveyance.desired_ready_time', 'That ready time is not available; choose one of available_at.', 'unavailable'));
  } else if (isClosedAt(location, now)) {
    errors.push(errorDetail('order', 'location_id', 'This location is closed right now.', 'location_closed'));
  } else if (!readyAt) {
    errors.push(cartInvalid('Some items cannot be ordered right now.'));
  }

  const checkAt = readyAt ?? now;
  const lines = cart.items.map((line, index) => checkLine(menu, line, index, checkAt, errors)).filter((line) => line !== undefined);

  const settings = menu.settings;
  if (cart.special_instructions !== null) {
    if (!settings.allows_special_instructions)
      errors.push(errorDetail('order', 'special_instructions', 'This location does not accept special instructions.', 'special_instructions_not_allowed'));
    else if (cart.special_instructions.length > settings.special_instructions_character_limit) {
      errors.push(
        errorDetail(
          'order',
          'special_instructions',
          `Special instructions are limited to ${settings.special_instructions_character_limit} characters.`,
          'too_long',
        ),
      );
    }
  }
  const acceptsTips = cart.fulfillment_type === 'delivery' ? location.accepts_tips_on_delivery : location.accepts_tips_on_pickup;
  if (!acceptsTips && ((cart.tip_amount ?? 0) > 0 || (cart.tip_amount === null && (cart.tip_percent ?? 0) > 0))) {
    errors.push(errorDetail('order', 'tip_amount', `This location does not accept tips on ${cart.fulfillment_type} orders.`, 'tips_not_accepted'));
  }
  if (errors.length > 0) return { valid: false, errors };

  const charges = priceCharges({
    lineTotals: lines.map((line) => line.line_total_amount),
    deliveryFee: cart.fulfillment_type === 'delivery' ? settings.delivery_fee_amount : 0,
    merchantServiceFee: settings.service_fee_amount,
    providerServiceFee: settings.provider_service_fee_amount,
    taxRateBasisPoints: settings.tax_rate_basis_points,
    tipAmount: cart.tip_amount,
    tipPercent: cart.tip_percent,
    creditAvailable: credit.balance,
    giftCardAvailable: giftCard.balance,
  });
  const upsell = eligibleUpsell(menu, { cartItemIds: cart.items.map((line) => line.id), ordersCount, exclude: cart.upsell_ids, now });
  return {
    valid: true,
    priced: {
      merchant_id: location.merchant_id,
      merchant_name: merchant?.name ?? '',
      location_id: location.location_id,
      location_phone: location.phone ?? null,
      menu_id: menu.menu_id,
      ordering_provider: settings.ordering_provider,
      location_title: [location.street_address, location.extended_address].filter((part) => part !== '').join(', '),
      location_subtitle: `${location.locality}, ${location.region} ${location.postal_code}`,
      latitude: location.latitude,
      longitude: location.longitude,
      fulfillment_type: cart.fulfillment_type,
      delivery_address_id: cart.delivery_address_id,
      // The slot the client chose, written in the API's one datetime format whatever form it came in.
      desired_ready_time: cart.desired_ready_time === null ? null : isoSeconds(readyAt),
      allows_special_instructions: settings.allows_special_instructions,
      special_instructions_character_limit: settings.special_instructions_character_limit,
      special_instructions: cart.special_instructions,
      instructions: cart.fulfillment_type === 'delivery' ? settings.delivery_instructions : settings.pickup_instructions,
      available_at: times.map((time) => isoSeconds(time)),
      soonest_available_at: isoSeconds(times[0]),
      items: lines,
      ...charges,
      displayed_upsell_ids: cart.upsell_ids,
      upsell: upsell ? pollUpsell(menu, upsell) : null,
      validated_at: isoSeconds(now),
    },
  };
}

/**
 * The Task's validation step: reads the stored order and validates its cart. The outcome names the order's
 * app (null when there is no order), so the step that records it sends the event there without reading again.
 */
export async function validateProposedOrder(uuid: string, now: Date = new Date()): Promise<ValidationOutcome & { app_id: number | null }> {
  const order = await getProposedOrder(uuid);
  if (!order) return { valid: false, errors: [errorDetail('order', 'uuid', 'Order not found.', 'not_found')], app_id: null };
  return { ...(await validateCart({ userId: order.user_id, cart: order.cart, now })), app_id: order.app_id };
}
