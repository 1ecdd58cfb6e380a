import { randomUUID } from 'node:crypto';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { addCredit, cardAccountKey, creditAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { appFixture, merchantFixture, userFixture } from './fixtures.ts';
import { locationFixture } from './locations.ts';
import type { TestApi } from './api.ts';
import type { Permission } from '#shared/routes.ts';

/** A merchant with its app and a user (with QR code data) of that app. */
export async function moneyWorld(options: { managerConfirmation?: string | null; userPermissions?: readonly Permission[] } = {}) {
  const { app } = await appFixture({ global: true });
  const merchant = await merchantFixture(app.app_id, { managerConfirmation: options.managerConfirmation ?? null });
  const user = await userFixture(app.app_id, options.userPermissions ? { permissions: options.userPermissions } : {});
  return { app, merchant, user };
}

export function loadGiftCard(api: TestApi, merchantToken: string, merchantId: number, addition: Record<string, unknown>, headers?: Record<string, string>) {
  return api.call('POST', `/v15/merchants/${merchantId}/gift_card_value_additions`, {
    token: merchantToken,
    body: { gift_card_value_addition: addition },
    headers,
  });
}

/** Loads `valueAmount` of gift card value for the world's user at its merchant (POST gift_card_value_additions). */
export function loadWorldGiftCard(api: TestApi, world: OrderWorld, valueAmount: number) {
  return loadGiftCard(api, world.merchant.token, world.merchant.merchant.merchant_id, {
    payment_token_data: world.user.user.payment_token_data,
    value_amount: valueAmount,
  });
}

export type CardKind = 'valid' | 'declines' | 'limited-funds' | 'none';

/** A merchant with a location, and a user of the same app with a card of the given behaviour. */
export async function orderWorld(options: { card?: CardKind; managerConfirmation?: string | null; credit?: number; giftCard?: number } = {}) {
  const world = await moneyWorld({ managerConfirmation: options.managerConfirmation });
  const location = await locationFixture(world.merchant.merchant.merchant_id);
  const card = options.card ?? 'valid';
  if (card !== 'none') await addCreditCard(world.user.user.user_id, `fake-${card}-nonce-${randomUUID()}`);
  if (options.credit) {
    await addCredit({
      userId: world.user.user.user_id,
      merchantId: world.merchant.merchant.merchant_id,
      amount: options.credit,
      entryId: `test:${randomUUID()}`,
    });
  }
  return { ...world, location };
}

export type OrderWorld = Awaited<ReturnType<typeof orderWorld>>;

/** The customer's gift card value, merchant-funded credit and card charges at the world's merchant, in cents. */
export async function worldBalances(world: OrderWorld) {
  const [userId, merchantId] = [world.user.user.user_id, world.merchant.merchant.merchant_id];
  const [giftCard, credit, card] = await Promise.all([
    getBalance(giftCardAccountKey(userId, merchantId)),
    getBalance(creditAccountKey(userId, merchantId)),
    getBalance(cardAccountKey(userId, merchantId)),
  ]);
  return { giftCard: giftCard.balance, credit: credit.balance, card: card.balance };
}

/** A proposed order of 10.00 at the world's location for its user, no tax, exemption or items; `fields` override. */
export function proposeBody(world: OrderWorld, fields: Record<string, unknown> = {}) {
  return {
    proposed_order: {
      location_id: world.location.location_id,
      payment_token_data: world.user.user.payment_token_data,
      spend_amount: 1000,
      tax_amount: 0,
      exemption_amount: 0,
      partial_authorization_allowed: false,
      items: [],
      ...fields,
    },
  };
}

export async function propose(api: TestApi, world: OrderWorld, fields: Record<string, unknown> = {}, headers?: Record<string, string>) {
  return api.call('POST', '/v15/proposed_orders', { token: world.merchant.token, headers, body: proposeBody(world, fields) });
}

export function completeBody(world: OrderWorld, proposedOrderUuid: string, fields: Record<string, unknown> = {}) {
  return {
    completed_order: {
      proposed_order_uuid: proposedOrderUuid,
      location_id: world.location.location_id,
      payment_token_data: world.user.user.payment_token_data,
      spend_amount: 1000,
      tax_amount: 0,
      applied_discount_amount: 0,
      partial_authorization_allowed: false,
      ...fields,
    },
  };
}

export async function complete(
  api: TestApi,
  world: OrderWorld,
  proposedOrderUuid: string,
  fields: Record<string, unknown> = {},
  options: { token?: string; headers?: Record<string, string> } = {},
) {
  return api.call('POST', '/v15/completed_orders', {
    token: options.token ?? world.merchant.token,
    headers: options.headers,
    body: completeBody(world, proposedOrderUuid, fields),
  });
}

/** Proposes and completes an order; returns the completion response. */
export async function placeOrder(api: TestApi, world: OrderWorld, fields: Record<string, unknown> = {}) {
  const proposed = await propose(api, world, { spend_amount: fields.spend_amount ?? 1000 });
  if (proposed.status !== 200) throw new Error(`propose failed: ${proposed.status} ${proposed.text}`);
  return complete(api, world, proposed.body.proposed_order.uuid, fields);
}
