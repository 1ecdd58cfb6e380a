import './round-trips.env.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { orderWorld, placeOrder, type OrderWorld, loadWorldGiftCard } from '../support/money.ts';
import { countRoundTripsInThisFile } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the POS money endpoints (a count from X-DynamoDB-Round-Trips, not
 * a timing): each equals the minimum documented in docs/data-model.md ("Access patterns per request") and
 * bench/scenarios/scenarios.ts.
 */
const api = useTestApi();
let world: OrderWorld;

const roundTrips = (response: { headers: Headers; status: number; text: string }) => {
  expect(response.status, response.text).toBe(200);
  return Number(response.headers.get('x-dynamodb-round-trips'));
};

beforeAll(async () => {
  world = await orderWorld({ card: 'valid', credit: 500 });
  await campaignFixture(world.merchant.merchant.merchant_id, 'spend');
  // Paid by card first (a detached refund is bounded by what the card paid), then a gift card to remove value from.
  expect((await placeOrder(api, world, { spend_amount: 3000 })).status).toBe(200);
  expect((await loadWorldGiftCard(api, world, 5000)).status).toBe(200);
});

countRoundTripsInThisFile();

describe('round trips per POS request', () => {
  it('credit checks: token + (location, QR code) + the available-credit batch; QR validation: token + one read', async () => {
    const qr = world.user.user.payment_token_data;
    const location = world.location.location_id;
    expect(
      roundTrips(await api.call('GET', `/v15/locations/${location}/merchant_funded_credit?payment_token_data=${qr}`, { token: world.merchant.token })),
    ).toBe(3);
    expect(
      roundTrips(
        await api.call('POST', `/v15/locations/${location}/get_merchant_funded_gift_card_credit`, {
          token: world.merchant.token,
          body: { get_merchant_funded_gift_card_credit: { payment_token_data: qr } },
        }),
      ),
    ).toBe(3);
    expect(roundTrips(await api.call('GET', `/v15/locations/${location}/credit`, { token: world.user.token }))).toBe(3);
    expect(
      roundTrips(await api.call('POST', '/v15/qr_code_validations', { token: world.merchant.token, body: { qr_code_validation: { payment_token_data: qr } } })),
    ).toBe(2);
  });

  it("one-step order: token beside (location, QR code) + (merchant, user) beside one transaction creating the source claimed with the customer's lease + the settlement's balances, loyalty x2 and transaction", async () => {
    const response = await api.call('POST', '/v15/orders', {
      token: world.merchant.token,
      body: { order: { location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data, spend_amount: 100, items: [] } },
    });
    // + the order's integer id, drawn beside the reads (a sharded counter; issue 34.11)
    expect(roundTrips(response)).toBe(9);
  });

  it('gift card removal: token + QR code + balance + one transaction', async () => {
    const response = await api.call('POST', `/v15/merchants/${world.merchant.merchant.merchant_id}/gift_card_value_removals`, {
      token: world.merchant.token,
      body: { gift_card_value_removal: { payment_token_data: world.user.user.payment_token_data, value_amount: 100 } },
    });
    expect(roundTrips(response)).toBe(4);
  });

  it('detached refund: token + (location, merchant, identifier, QR code) + (card, running total, user, the day credit budget counter) + one transaction', async () => {
    const response = await api.call('POST', '/v15/detached_refunds', {
      token: world.merchant.token,
      body: { detached_refund: { credit_amount: 100, location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data } },
    });
    expect(roundTrips(response)).toBe(4);
  });
});
