/**
 * The POS writes whose first read is keyed by the request alone (POST /v15/proposed_orders, /v15/orders,
 * /v14/orders) send it beside the token's read (the route's prefetch, shared/http/handler.ts): a refused
 * token still answers only its 401, the checks on the items still run once the token is admitted, and a
 * prefetch that fails leaves the answer what it was without one (docs/security.md, "Prefetched reads").
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, propose, proposeBody, type OrderWorld } from '../support/money.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { keys } from '#shared/db/keys.ts';
import { placeOneStepOrder, readOneStepParties } from '#shared/domain/orders/one-step.ts';
import { proposeOrder, readProposalParties } from '#shared/domain/orders/proposals.ts';
import { proposedOrderBody } from '#shared/schemas/money.ts';
import { oneStepOrderBody } from '#shared/schemas/pos-money.ts';

const api = useTestApi();

const oneStep = (world: OrderWorld, fields: Record<string, unknown> = {}, authorization = `token merchant="${world.merchant.token}"`) =>
  api.call('POST', '/v15/orders', {
    authorization,
    body: {
      order: { location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data, spend_amount: 100, items: [], ...fields },
    },
  });

const proposal = (world: OrderWorld) => proposedOrderBody.parse(proposeBody(world)).proposed_order;

const failedRead = () => Promise.reject(Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' }));

describe("POS writes that read the request's items beside the token", () => {
  it('answers a refused token its 401 alone: nothing of the location, the merchant or the QR code reaches the answer', async () => {
    const world = await orderWorld();
    const revealing = [world.location.name, String(world.user.user.user_id), world.merchant.merchant.name].filter(
      (text) => typeof text === 'string' && text.length > 2,
    ) as string[];
    const userToken = await issueToken({
      subject: 'user',
      userId: world.user.user.user_id,
      appId: world.app.app_id,
      permissions: ['create_orders'],
      unlimited: false,
    });
    for (const authorization of [`token merchant="${'f'.repeat(64)}"`, `token ${userToken}`]) {
      const answers = [
        await api.call('POST', '/v15/proposed_orders', { authorization, body: { proposed_order: proposal(world) } }),
        await oneStep(world, {}, authorization),
        await api.call('POST', '/v14/orders', {
          authorization,
          body: { order: { location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data, spend_amount: 100, items: [] } },
        }),
      ];
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(401);
        expect(answer.body).toEqual([{ error: expect.objectContaining({ object: 'access_token' }) }]);
        for (const text of revealing) expect(answer.text).not.toContain(text);
      }
    }
  });

  it("answers a location that does not exist its not-found error, and another merchant's 401 (issue 34.3), as before prefetching", async () => {
    const world = await orderWorld();
    const other = await merchantFixture(world.app.app_id);
    const foreign = await locationFixture(other.merchant.merchant_id);
    const missing = 987_654_321;
    const proposed = await propose(api, world, { location_id: missing });
    expect(proposed.status, proposed.text).toBe(422);
    expect(proposed.body).toEqual([{ error: { object: 'order', property: 'location_id', message: "Location can't be blank", code: 'not_found' } }]);
    const placed = await oneStep(world, { location_id: missing });
    expect(placed.status, placed.text).toBe(404);
    expect(placed.body).toEqual([{ error: { object: 'order', property: 'location_id', message: 'Location not found.', code: 'not_found' } }]);
    for (const response of [await propose(api, world, { location_id: foreign.location_id }), await oneStep(world, { location_id: foreign.location_id })]) {
      expect(response.status, response.text).toBe(401);
      expect(response.body).toEqual([
        { error: { object: 'order', property: 'merchant_token', message: 'Not authorized to create orders for this merchant.', code: 'not_authorized' } },
      ]);
    }
  });

  it('makes the read itself when the prefetch failed, lacks an item it needs or was keyed otherwise, and answers as without one', async () => {
    const world = await orderWorld({ credit: 300 });
    const merchant = { merchantId: world.merchant.merchant.merchant_id, appId: world.app.app_id };
    const request = proposal(world);
    const without = await proposeOrder(merchant, request);
    const afterFailure = await proposeOrder(merchant, request, failedRead());
    const prefetched = await proposeOrder(merchant, request, readProposalParties(request));
    // A prefetch keyed by what the raw body named, here another merchant's location: its items are not the ones
    // the validated body names, so the proposal reads its own (and answers as without a prefetch).
    const other = await locationFixture((await merchantFixture(world.app.app_id)).merchant.merchant_id);
    const keyedOtherwise = await proposeOrder(merchant, request, readProposalParties({ ...request, location_id: other.location_id }));
    for (const proposed of [afterFailure, prefetched, keyedOtherwise]) {
      expect({ ...proposed, uuid: '', created_at: '', updated_at: '' }).toEqual({ ...without, uuid: '', created_at: '', updated_at: '' });
    }
    const orderRequest = oneStepOrderBody.parse({
      order: { location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data, spend_amount: 100, tip_amount: 0, items: [] },
    }).order;
    const placed = await placeOneStepOrder({ merchant, request: orderRequest, prefetched: failedRead() });
    expect(placed).toMatchObject({ spend_amount: 100, user_id: world.user.user.user_id });
    // A prefetch of the location alone (no QR code read): the order reads the location and the code itself.
    const partial = readOneStepParties({ location_id: world.location.location_id, payment_token_data: null }).then((read) => ({
      ...read,
      keys: [keys.location(world.location.location_id)],
    }));
    expect(await placeOneStepOrder({ merchant, request: orderRequest, prefetched: partial })).toMatchObject({
      spend_amount: 100,
      user_id: world.user.user.user_id,
    });
    // Keyed by another location than the validated body's: the order reads its own location and code.
    const elsewhere = readOneStepParties({ location_id: other.location_id, payment_token_data: world.user.user.payment_token_data });
    expect(await placeOneStepOrder({ merchant, request: orderRequest, prefetched: elsewhere })).toMatchObject({
      spend_amount: 100,
      user_id: world.user.user.user_id,
      location_id: world.location.location_id,
    });
  });
});
