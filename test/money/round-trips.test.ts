import './round-trips.env.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { complete, loadGiftCard, orderWorld, propose, type OrderWorld } from '../support/money.ts';
import { roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the money endpoints (a count from X-DynamoDB-Round-Trips, not a
 * timing): each must equal the minimum documented in docs/data-model.md ("Access patterns per request")
 * and bench/scenarios/scenarios.ts. A change that adds a read shows up here.
 */
const api = useTestApi();
let world: OrderWorld;

beforeAll(async () => {
  world = await orderWorld({ card: 'valid' });
  // A loyalty campaign at the merchant, so completion and refund carry loyalty's reads and writes.
  await campaignFixture(world.merchant.merchant.merchant_id, 'spend');
});

afterAll(async () => {
  // The worker process may run other test files next: they measure nothing.
  delete process.env.DYNAMODB_STATS;
});

describe('round trips per request', () => {
  it('gift card load: token + QR code + balance + one transaction', async () => {
    const response = await loadGiftCard(api, world.merchant.token, world.merchant.merchant.merchant_id, {
      payment_token_data: world.user.user.payment_token_data,
      value_amount: 1000,
      external_identifier: `rt-${Date.now()}`,
    });
    expect(response.status).toBe(200);
    expect(roundTrips(response)).toBe(4);
  });

  it('proposed order, completed order (card charge, loyalty) and its refund', async () => {
    const proposed = await propose(api, world, { spend_amount: 2000 });
    expect(proposed.status).toBe(200);
    // token + (location, QR code) + (credit balance, user) + the proposed order's Put
    expect(roundTrips(proposed)).toBe(4);

    const completed = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: 2000 });
    expect(completed.status).toBe(200);
    // token + (proposed order, QR code, location, merchant) + the customer's settlement lease + settlement
    // lease + (balances, user, card) + the merchant's campaigns + the user's loyalty + one transaction
    // + the order's integer id, drawn beside the reads (a sharded counter; issue 34.11)
    expect(roundTrips(completed)).toBe(9);

    const refund = await api.call('POST', `/v14/orders/${completed.body.order.uuid}/refund`, { token: world.merchant.token, body: { refund: {} } });
    expect(refund.status).toBe(200);
    // token + (order, merchant, loyalty effects record) + the user's loyalty + one transaction
    expect(roundTrips(refund)).toBe(4);
  });

  it("gift card value order (A17): token + (merchant, the app's charge limits, the buyer's month counters, the recipient's login and held gifts, the buyer) and beside it the buyer's rate window + the buyer's card + one transaction", async () => {
    const recipient = await userFixture(world.app.app_id);
    const response = await api.call('POST', '/v15/users/gift_card_value_orders', {
      token: world.user.token,
      body: { gift_card_value_order: { merchant_id: world.merchant.merchant.merchant_id, recipient_email: recipient.email, value_amount: 1000 } },
    });
    expect(response.status, response.text).toBe(200);
    expect(roundTrips(response)).toBe(5);
  });

  it("the user's orders and one order: token + one read", async () => {
    const placed = await propose(api, world, { spend_amount: 1000 });
    const completed = await complete(api, world, placed.body.proposed_order.uuid);
    expect(completed.status).toBe(200);
    // The first request of a function reads the (immutable) app once; every later one does not.
    await api.call('GET', '/v15/apps/orders', { token: world.user.token });
    const page = await api.call('GET', '/v15/apps/orders', { token: world.user.token });
    expect(page.status).toBe(200);
    expect(roundTrips(page)).toBe(2);

    const order = await api.call('GET', `/v15/orders/${completed.body.order.uuid}`, { token: world.user.token });
    expect(order.status).toBe(200);
    expect(roundTrips(order)).toBe(2);
  });
});
