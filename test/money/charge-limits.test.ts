/**
 * Card charge limits (docs/money.md, "Card charge limits"; issue 12.7): what the gateway may charge one user's card
 * per order and per calendar month, with documented defaults, raised or lowered per app and tightened per merchant
 * with `npm run admin -- set-charge-limits`. Over a limit: 422 in the error format, nothing charged, the ledger
 * audits to 0; concurrent orders cannot pass the monthly limit together; a refund gives its room back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { runAdmin } from '../support/admin.ts';
import { merchantFixture, userFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { complete, orderWorld, placeOrder, propose, type OrderWorld } from '../support/money.ts';
import { observeGateway } from '../support/gateway.ts';
import { auditLedger, cardAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { DEFAULT_CHARGE_LIMITS } from '#shared/domain/money/charge-limits.ts';

const api = useTestApi();
const gateway = observeGateway();

/** `npm run admin -- set-charge-limits ...` against the test's table; the printed JSON. */
async function setLimits(args: string[]) {
  const result = await runAdmin(['set-charge-limits', ...args], api);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { charge_limits: Record<string, number> };
}

function expectLimitRefusal(response: ApiResult, object: string, code: 'over_order_charge_limit' | 'over_monthly_charge_limit') {
  expect(response.status, response.text).toBe(422);
  expect(response.body).toEqual([{ error: { object, property: 'base', message: expect.any(String), code } }]);
}

/** What the gateway still holds of the charges made since `mark`: charges less refunds and voids. */
function netCharged(calls: ReturnType<ReturnType<typeof gateway.since>>): number {
  return calls.charges.reduce((sum, charge) => sum + charge.amount, 0) - calls.refunds.reduce((sum, refund) => sum + refund.amount, 0);
}

/** Another merchant of the world's app, with a location: the same customer's orders there race on the month's counter. */
async function otherMerchant(world: OrderWorld): Promise<OrderWorld> {
  const merchant = await merchantFixture(world.app.app_id);
  return { ...world, merchant, location: await locationFixture(merchant.merchant.merchant_id) };
}

const totalCharged = async (worlds: OrderWorld[]) => {
  let total = 0;
  for (const world of worlds) total += (await getBalance(cardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;
  return total;
};

describe('the per-order cap', () => {
  it('refuses a check over the default cap with a 422, charging nothing, on completed and one-step orders; the cap itself is fine', async () => {
    const world = await orderWorld();
    const calls = gateway.since();
    const over = DEFAULT_CHARGE_LIMITS.per_order_amount + 1;
    const headers = { 'Idempotency-Key': `over-${randomUUID()}` };
    const proposed = await propose(api, world, { spend_amount: over });
    expect(proposed.status, proposed.text).toBe(200);
    const refused = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: over }, { headers });
    expectLimitRefusal(refused, 'order', 'over_order_charge_limit');
    expect(refused.body[0].error.message).toContain('$1000.00');
    // A limit is a stable business answer, stored like a decline: the retry with the key replays it.
    const replay = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: over }, { headers });
    expect(replay.status).toBe(422);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const oneStep = await api.call('POST', '/v15/orders', {
      token: world.merchant.token,
      body: { order: { location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data, spend_amount: over, items: [] } },
    });
    expectLimitRefusal(oneStep, 'order', 'over_order_charge_limit');
    expect(calls().charges).toEqual([]);
    expect(await totalCharged([world])).toBe(0);

    const atCap = await placeOrder(api, world, { spend_amount: DEFAULT_CHARGE_LIMITS.per_order_amount });
    expect(atCap.status, atCap.text).toBe(200);
    expect(await totalCharged([world])).toBe(DEFAULT_CHARGE_LIMITS.per_order_amount);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

describe('remote checks (P16-P19)', () => {
  it("refuses the POS's finalisation over the app's per-order cap with a 422, charging nothing", async () => {
    const world = await orderWorld();
    await setLimits(['--app-id', String(world.app.app_id), '--per-order-amount', '1000']);
    const published = await api.call('PUT', '/v15/checks', {
      token: world.merchant.token,
      body: {
        check: {
          location_id: world.location.location_id,
          spend_amount: 1500,
          tax_amount: 0,
          exemption_amount: 0,
          partial_authorization_allowed: false,
          items: [],
        },
      },
    });
    expect(published.status, published.text).toBe(200);
    const uuid = published.body.check.uuid as string;
    const claimed = await api.call('POST', `/v15/checks/${uuid}/orders`, { token: world.user.token, body: {} });
    expect(claimed.status, claimed.text).toBe(200);
    const calls = gateway.since();
    const finalised = await api.call('POST', `/v15/checks/${uuid}/orders`, {
      token: world.merchant.token,
      body: { order: { applied_discount_amount: null, tax_amount: 0, spend_amount: 1500 } },
    });
    expectLimitRefusal(finalised, 'order', 'over_order_charge_limit');
    expect(calls().charges).toEqual([]);
    expect(await totalCharged([world])).toBe(0);
  });
});

describe('admin overrides', () => {
  it('an app raises and lowers its limits; a merchant tightens them at itself; --clear goes back', async () => {
    const world = await orderWorld();
    const appId = String(world.app.app_id);
    const merchantId = String(world.merchant.merchant.merchant_id);
    expect((await setLimits(['--app-id', appId, '--per-order-amount', '2000'])).charge_limits).toEqual({ per_order_amount: 2000 });
    expectLimitRefusal(await placeOrder(api, world, { spend_amount: 2500 }), 'order', 'over_order_charge_limit');
    await setLimits(['--app-id', appId, '--per-order-amount', '3000']);
    expect((await placeOrder(api, world, { spend_amount: 2500 })).status).toBe(200);

    // The merchant's own cap holds at that merchant only, under the app's.
    await setLimits(['--merchant-id', merchantId, '--per-order-amount', '1500']);
    expectLimitRefusal(await placeOrder(api, world, { spend_amount: 2000 }), 'order', 'over_order_charge_limit');
    const elsewhere = await otherMerchant(world);
    expect((await placeOrder(api, elsewhere, { spend_amount: 2000 })).status).toBe(200);
    await setLimits(['--merchant-id', merchantId, '--clear']);
    expect((await placeOrder(api, world, { spend_amount: 2000 })).status).toBe(200);

    // A merchant's monthly limit counts only what the user was charged there this month.
    await setLimits(['--merchant-id', merchantId, '--monthly-amount', '5000']);
    expectLimitRefusal(await placeOrder(api, world, { spend_amount: 1000 }), 'order', 'over_monthly_charge_limit');
    expect((await placeOrder(api, elsewhere, { spend_amount: 1000 })).status).toBe(200);
    expect(await totalCharged([world, elsewhere])).toBe(2500 + 2000 + 2000 + 1000);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('refuses bad options with the usage (exit 2) and an unknown app (exit 1)', async () => {
    expect((await runAdmin(['set-charge-limits', '--app-id', '1', '--merchant-id', '1', '--monthly-amount', '10'], api)).code).toBe(2);
    expect((await runAdmin(['set-charge-limits', '--app-id', '1'], api)).code).toBe(2);
    expect((await runAdmin(['set-charge-limits', '--app-id', '1', '--monthly-amount', '0'], api)).code).toBe(2);
    expect((await runAdmin(['set-charge-limits', '--app-id', '1', '--monthly-amount', '1000000001'], api)).code).toBe(2);
    const missing = await runAdmin(['set-charge-limits', '--app-id', '999999999', '--monthly-amount', '1000'], api);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('does not exist');
  });

  it("the payment method shows the app's monthly limit under monthly billing", async () => {
    const world = await orderWorld();
    const preference = await api.call('PUT', '/v15/apps/payment_preference', { token: world.user.token, body: { payment_preference: { preload: false } } });
    expect(preference.status, preference.text).toBe(200);
    const limit = async () => (await api.call('GET', '/v15/payment_method', { token: world.user.token })).body.payment_method.monthly_transaction_limit_amount;
    expect(await limit()).toBe(DEFAULT_CHARGE_LIMITS.monthly_amount);
    await setLimits(['--app-id', String(world.app.app_id), '--monthly-amount', '25000']);
    expect(await limit()).toBe(25000);
  });
});

describe('the monthly limit', () => {
  /** Completes with its own Idempotency-Key, retrying the same request while the answer is a 409 (the customer is busy). */
  async function settle(world: OrderWorld, spendAmount: number): Promise<ApiResult> {
    const proposed = await propose(api, world, { spend_amount: spendAmount });
    expect(proposed.status, proposed.text).toBe(200);
    const headers = { 'Idempotency-Key': `month-${randomUUID()}` };
    for (let attempt = 1; ; attempt++) {
      const response = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: spendAmount }, { headers });
      if (response.status !== 409 || attempt >= 60) return response;
      await sleep(100 + Math.random() * 200);
    }
  }

  it('lets exactly as many concurrent orders through as fit; the rest are 422 and hold no charge', async () => {
    const first = await orderWorld();
    const worlds = [first, await otherMerchant(first), await otherMerchant(first), await otherMerchant(first)];
    await setLimits(['--app-id', String(first.app.app_id), '--monthly-amount', '5000']);
    const calls = gateway.since();
    // Eight orders of $10 at four merchants at once (the same customer): the month has room for five.
    const responses = await Promise.all(Array.from({ length: 8 }, (_, index) => settle(worlds[index % worlds.length]!, 1000)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses, responses.map((response) => response.text).join('\n')).toEqual([200, 200, 200, 200, 200, 422, 422, 422]);
    for (const refused of responses.filter((response) => response.status === 422)) expectLimitRefusal(refused, 'order', 'over_monthly_charge_limit');
    expect(netCharged(calls())).toBe(5000);
    expect(await totalCharged(worlds)).toBe(5000);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('a refund gives its room back to the month', async () => {
    const world = await orderWorld();
    await setLimits(['--app-id', String(world.app.app_id), '--monthly-amount', '3000']);
    const kept = await placeOrder(api, world, { spend_amount: 2000 });
    expect(kept.status, kept.text).toBe(200);
    expectLimitRefusal(await placeOrder(api, world, { spend_amount: 2000 }), 'order', 'over_monthly_charge_limit');
    const refund = await api.call('POST', `/v14/orders/${kept.body.order.uuid}/refund`, { token: world.merchant.token, body: { refund: {} } });
    expect(refund.status, refund.text).toBe(200);
    expect((await placeOrder(api, world, { spend_amount: 2000 })).status).toBe(200);
    expect(await totalCharged([world])).toBe(2000);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it("holds for gift card value orders (A17): the buyer's card is charged under the same limits", async () => {
    const world = await orderWorld();
    const recipient = await userFixture(world.app.app_id);
    await setLimits(['--app-id', String(world.app.app_id), '--monthly-amount', '2000']);
    const buy = (valueAmount: number) =>
      api.call('POST', '/v15/users/gift_card_value_orders', {
        token: world.user.token,
        body: { gift_card_value_order: { merchant_id: world.merchant.merchant.merchant_id, recipient_email: recipient.email, value_amount: valueAmount } },
      });
    expect((await buy(1500)).status).toBe(200);
    const calls = gateway.since();
    expectLimitRefusal(await buy(1000), 'gift_card_value_order', 'over_monthly_charge_limit');
    expect(calls().charges).toEqual([]);
    // The in-store order shares the month with it.
    expectLimitRefusal(await placeOrder(api, world, { spend_amount: 600 }), 'order', 'over_monthly_charge_limit');
    expect((await placeOrder(api, world, { spend_amount: 500 })).status).toBe(200);
    expect(await totalCharged([world])).toBe(2000);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
