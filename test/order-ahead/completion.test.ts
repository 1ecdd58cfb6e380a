/**
 * Completion as the iOS SDK drives it, through HTTP against the local stack with both local state
 * machines: POST order_completion_url -> 202, poll order_url every 0.5 s -> 202 ... 200 (or 422), with the
 * sandbox ordering provider's four behaviours, the settlement's exactly-once charge and the reversal of a
 * rejected order. The provider's cut-off is shortened by configuration, never waited out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger, cardAccountKey, creditAccountKey, addCredit, getBalance } from '#shared/domain/money/ledger.ts';
import { chargeOrderAhead } from '#shared/domain/order-ahead/complete.ts';
import { getProposedOrder, transitionOrder } from '#shared/domain/order-ahead/orders.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { getOrder } from '#shared/domain/orders/record.ts';
import { setChargeLimits } from '../../scripts/admin/money-settings.ts';
import { SANDBOX_PROVIDERS, SANDBOX_REJECTION_REASON } from '#shared/ordering/sandbox.ts';
import { SANDBOX_NONCES } from '#shared/payments/sandbox.ts';
import { stepHandler as completionSteps } from '../../functions/order-ahead-completion-steps.ts';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { cardFixture, uniqueNonce } from '../support/cards.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { iosCart, orderAheadLocationFixture, orderAheadUserFixture, pollLikeIos, pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';

// Configuration, as an operator would set it: the provider's cut-off (90 s deployed) and the slow sandbox's delay.
const CUTOFF_SECONDS = 3;
const configured = { cutoff: process.env.ORDER_AHEAD_PROVIDER_CUTOFF_SECONDS, slow: process.env.ORDERING_SANDBOX_SLOW_SECONDS };
process.env.ORDER_AHEAD_PROVIDER_CUTOFF_SECONDS = String(CUTOFF_SECONDS);
process.env.ORDERING_SANDBOX_SLOW_SECONDS = '1';
afterAll(() => {
  process.env.ORDER_AHEAD_PROVIDER_CUTOFF_SECONDS = configured.cutoff;
  process.env.ORDERING_SANDBOX_SLOW_SECONDS = configured.slow;
  if (configured.cutoff === undefined) delete process.env.ORDER_AHEAD_PROVIDER_CUTOFF_SECONDS;
  if (configured.slow === undefined) delete process.env.ORDERING_SANDBOX_SLOW_SECONDS;
});

/** Orders whose Forward step fails (the provider unreachable): every try throws, as a Lambda error would. */
const unreachable = new Set<string>();
const api = useTestApi(() =>
  startOrderAheadTestApi({
    retryIntervalMs: 10,
    taskHandlers: {
      Forward: async (input) => {
        const uuid = (input as { order_uuid: string }).order_uuid;
        if (unreachable.has(uuid)) throw new Error('ordering provider unreachable');
        return completionSteps(input);
      },
    },
  }),
);
type Place = Awaited<ReturnType<typeof orderAheadLocationFixture>>;
const places = {} as Record<'accepts' | 'rejects' | 'slow' | 'silent', Place>;

beforeAll(async () => {
  const { app } = await appFixture({ global: true });
  const merchant = await merchantFixture(app.app_id);
  const within = { app, merchant };
  places.accepts = await orderAheadLocationFixture({ within, provider: SANDBOX_PROVIDERS.accepts });
  places.rejects = await orderAheadLocationFixture({ within, provider: SANDBOX_PROVIDERS.rejects });
  places.slow = await orderAheadLocationFixture({ within, provider: SANDBOX_PROVIDERS.slow, location: { phone: '(617) 555-0142' } });
  places.silent = await orderAheadLocationFixture({ within, provider: SANDBOX_PROVIDERS.neverAnswers });
});

async function customer(nonce = uniqueNonce()) {
  const user = await orderAheadUserFixture(places.accepts.app.app_id);
  await cardFixture(user.user.user_id, nonce);
  return user;
}

/** Start (as the iOS SDK sends it: every key, absent values null) -> poll until valid; returns the priced order. */
async function validOrder(token: string, place: Place, extra: Record<string, unknown> = {}) {
  const started = await api.call('POST', '/v15/order_ahead/orders', {
    token,
    body: iosCart(place.location.location_id, [{ id: SAMPLE_IDS.tots, quantity: 1, special_instructions: null, option_ids: [SAMPLE_IDS.small] }], {
      tip_amount: 100,
      ...extra,
    }),
  });
  expect(started.status, started.text).toBe(200);
  const { last } = await pollUntilSettled(api, started.body.order.order_url, token);
  expect(last.status, last.text).toBe(200);
  return last.body.order;
}

/** Every poll answer: 202 with Retry-After (never 429) until the final one. */
function expectPatientPolls(answers: ApiResult[]) {
  for (const answer of answers.slice(0, -1)) {
    expect(answer.status).toBe(202);
    expect(answer.headers.get('retry-after')).toBe('1');
  }
  expect(answers.map((answer) => answer.status)).not.toContain(429);
}

const MERCHANT = () => places.accepts.merchant.merchant.merchant_id;

describe('completing an order-ahead order (the iOS SDK flow)', () => {
  it('start -> valid -> complete (202) -> poll 202 ... 200 with every field the iOS SDK reads; charged once', async () => {
    const user = await customer();
    const order = await validOrder(user.token, places.slow);
    // Tots 299 + Small 99 = 398; service fee 50; tax 10% of 448 = 45; tip 100.
    expect(order).toMatchObject({ subtotal: 398, tax_amount: 45, tip_amount: 100, total_amount: 593 });

    const completed = await api.call('POST', order.order_completion_url, { token: user.token });
    expect(completed.status, completed.text).toBe(202);
    expect(completed.body).toEqual({
      order: { order_url: `${api.baseUrl}/v15/order_ahead/orders/${order.uuid}/complete`, state: 'submitting', uuid: order.uuid },
    });
    expectShapeOf(completed.body, clientPayload('ios_v15_order_ahead_orders_uuid_complete__create.json').response_body);
    expectShapeOf(completed.body, clientPayload('docs_v15_order_ahead_orders_uuid_complete__create.json').response_body);

    const { answers, last } = await pollLikeIos(api, completed.body.order.order_url, user.token);
    // The slow sandbox provider answers after a second: the poller saw it working first.
    expect(answers.length).toBeGreaterThan(1);
    expectPatientPolls(answers);
    expect(answers[0]!.body.order.state).toMatch(/^(submitting|charging|submitted)$/);
    expect(last.status, last.text).toBe(200);
    const done = last.body.order;
    // The reference: delivery_address_id is an integer or null (pickup), desired_ready_time ISO 8601 or null, item instructions a string or null.
    const nullable = ['$.order.conveyance.delivery_address_id', '$.order.conveyance.desired_ready_time', '$.order.items[].item.special_instructions'];
    for (const variant of clientPayload('ios_v15_order_ahead_orders_uuid_complete__show.json').responses)
      expectShapeOf(last.body, variant.response_body, { nullable });
    expectShapeOf(last.body, clientPayload('docs_v15_order_ahead_orders_uuid_complete__show.json').response_body_excerpt, { nullable });
    expect(done).toMatchObject({
      uuid: order.uuid,
      state: 'completed',
      conveyance: { fulfillment_type: 'pickup', desired_ready_time: null, delivery_address_id: null },
      location_id: places.slow.location.location_id,
      location_title: order.location_title,
      location_subtitle: order.location_subtitle,
      latitude: order.latitude,
      longitude: order.longitude,
      phone: '(617) 555-0142',
      ready_at: order.soonest_available_at,
      instructions: order.instructions,
      discount_amount: 0,
      total_amount: 593,
      tip_amount: 100,
    });
    expect(done.order_number).toMatch(/^\d{7}$/);
    expect(done.items).toEqual([
      {
        item: expect.objectContaining({
          id: SAMPLE_IDS.tots,
          name: 'Tater Tots',
          quantity: 1,
          selected_options_description: 'Small',
          option_ids: [SAMPLE_IDS.small],
        }),
      },
    ]);

    // The same order under the same uuid in the user's orders; the card charged once; the ledger balances.
    const listed = await api.call('GET', '/v15/apps/orders', { token: user.token });
    expect(listed.body.map((entry: any) => entry.order.uuid)).toContain(order.uuid);
    const card = await getBalance(cardAccountKey(user.user.user_id, MERCHANT()));
    expect(card).toMatchObject({ balance: 593, version: 1 });
    expect((await auditLedger()).mismatches).toEqual([]);

    // Every later poll, and a repeated POST, answer the same final state.
    expect((await api.call('GET', completed.body.order.order_url, { token: user.token })).text).toBe(last.text);
    const again = await api.call('POST', order.order_completion_url, { token: user.token });
    expect(again.status).toBe(202);
    expect(again.body.order.state).toBe('completed');
  });

  it('the provider rejects: 422 on poll with its reason, the charge voided through the gateway, the ledger reversed (audit 0)', async () => {
    const user = await customer();
    const order = await validOrder(user.token, places.rejects);
    const completed = await api.call('POST', order.order_completion_url, { token: user.token });
    expect(completed.status).toBe(202);
    const { answers, last } = await pollLikeIos(api, completed.body.order.order_url, user.token);
    expectPatientPolls(answers);
    expect(last.status, last.text).toBe(422);
    expect(last.body).toEqual([
      { error: { object: 'order', property: 'base', code: 'provider_rejected', message: `The restaurant rejected this order: ${SANDBOX_REJECTION_REASON}` } },
    ]);

    // It was charged, then given back: a charge and its refund on the card account, the order refunded.
    expect(await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).toMatchObject({ balance: 0, version: 2 });
    const settled = await getOrder(order.uuid);
    expect(settled).toMatchObject({ state: 'refunded', charged_amount: 593 });
    expect(settled!.refund_id).toMatch(/^sbx_re_/);
    const stored = await getProposedOrder(order.uuid);
    expect(stored).toMatchObject({ state: 'rejected', rejection: { charge_reversed: true, errors: last.body.map((entry: any) => entry.error) } });
    expect((await auditLedger()).mismatches).toEqual([]);

    // A completion after the rejection is a clear 4xx, and charges nothing.
    const late = await api.call('POST', order.order_completion_url, { token: user.token });
    expect(late.status).toBe(422);
    expect(late.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'rejected' });
    expect(late.body[0].error.message).toContain(SANDBOX_REJECTION_REASON);
    expect(await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).toMatchObject({ balance: 0, version: 2 });
  });

  it('the provider never answers: rejected at the configured cut-off, the charge reversed', async () => {
    const user = await customer();
    const credit = 200;
    await addCredit({ userId: user.user.user_id, merchantId: MERCHANT(), amount: credit, entryId: `test:${user.user.user_id}:credit` });
    const order = await validOrder(user.token, places.silent);
    expect(order.discount_amount).toBe(credit);
    const completed = await api.call('POST', order.order_completion_url, { token: user.token });
    const { answers, last } = await pollLikeIos(api, completed.body.order.order_url, user.token, (CUTOFF_SECONDS + 20) * 1000);
    expectPatientPolls(answers);
    expect(last.status, last.text).toBe(422);
    expect(last.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'provider_timeout' });
    expect(last.body[0].error.message).toContain(`${CUTOFF_SECONDS} seconds`);

    const stored = (await getProposedOrder(order.uuid))!;
    expect(Date.parse(stored.rejection!.rejected_at) - Date.parse(stored.submitted_at!)).toBeGreaterThanOrEqual((CUTOFF_SECONDS - 1) * 1000);
    expect(stored.rejection!.charge_reversed).toBe(true);
    // The applied credit came back too.
    expect((await getBalance(creditAccountKey(user.user.user_id, MERCHANT()))).balance).toBe(credit);
    expect((await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).balance).toBe(0);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it("the provider cannot be reached: after the step's retries, the Catch rejects the order and the charge is given back", async () => {
    const user = await customer();
    const order = await validOrder(user.token, places.accepts);
    unreachable.add(order.uuid);
    const completed = await api.call('POST', order.order_completion_url, { token: user.token });
    const { last } = await pollLikeIos(api, completed.body.order.order_url, user.token);
    expect(last.status, last.text).toBe(422);
    expect(last.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'completion_failed' });
    expect(await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).toMatchObject({ balance: 0, version: 2 });
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('a completion its workflow abandoned after charging is rejected by the first poll past its deadline, the charge given back', async () => {
    const user = await customer();
    const order = await validOrder(user.token, places.accepts);
    // As if the POST had happened and its execution died right after the charge committed.
    await transitionOrder(order.uuid, ['externally_valid'], 'charging', { submitted_at: isoSeconds(), completion_deadline: epochSeconds() - 1 });
    await chargeOrderAhead((await getProposedOrder(order.uuid))!);
    expect(await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).toMatchObject({ balance: 593, version: 1 });

    const poll = await api.call('GET', order.order_completion_url, { token: user.token });
    expect(poll.status, poll.text).toBe(422);
    expect(poll.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'completion_failed' });
    expect(await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).toMatchObject({ balance: 0, version: 2 });
    expect(await getProposedOrder(order.uuid)).toMatchObject({ state: 'rejected', rejection: { charge_reversed: true } });
    expect((await api.call('GET', order.order_completion_url, { token: user.token })).text).toBe(poll.text);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('10 concurrent completions of one order: all 202, one execution, one charge', async () => {
    const user = await customer();
    const order = await validOrder(user.token, places.accepts);
    const responses = await Promise.all(Array.from({ length: 10 }, () => api.call('POST', order.order_completion_url, { token: user.token })));
    for (const response of responses) {
      expect(response.status, response.text).toBe(202);
      expect(response.body.order).toMatchObject({ uuid: order.uuid, order_url: `${api.baseUrl}/v15/order_ahead/orders/${order.uuid}/complete` });
    }
    const { last } = await pollLikeIos(api, responses[0]!.body.order.order_url, user.token);
    expect(last.status, last.text).toBe(200);
    expect(await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).toMatchObject({ balance: 593, version: 1 });
    const listed = await api.call('GET', '/v15/apps/orders', { token: user.token });
    expect(listed.body.filter((entry: any) => entry.order.uuid === order.uuid)).toHaveLength(1);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('two orders quoting the same credit, completed at once: both complete, the credit is applied once and the card pays the rest', async () => {
    const user = await customer();
    const credit = 200;
    await addCredit({ userId: user.user.user_id, merchantId: MERCHANT(), amount: credit, entryId: `test:${user.user.user_id}:credit` });
    // Both validated before either completes: each quotes the whole credit.
    const orders = [await validOrder(user.token, places.accepts), await validOrder(user.token, places.accepts)];
    for (const order of orders) expect(order.discount_amount).toBe(credit);

    const submitted = await Promise.all(orders.map((order) => api.call('POST', order.order_completion_url, { token: user.token })));
    for (const response of submitted) expect(response.status, response.text).toBe(202);
    const outcomes = await Promise.all(submitted.map((response) => pollLikeIos(api, response.body.order.order_url, user.token)));
    for (const { last } of outcomes) expect(last.status, last.text).toBe(200);

    const settled = await Promise.all(orders.map(async (order) => (await getOrder(order.uuid))!));
    expect(settled.map((order) => order.applied_discount_amount).sort((a, b) => a - b)).toEqual([0, credit]);
    expect(settled.map((order) => order.charged_amount).sort((a, b) => a - b)).toEqual([593 - credit, 593]);
    expect((await getBalance(creditAccountKey(user.user.user_id, MERCHANT()))).balance).toBe(
      settled.reduce((sum, order) => sum + order.credit_earned_amount, 0),
    );
    expect((await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).balance).toBe(2 * 593 - credit);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('a declined card: rejected with the decline, nothing charged, nothing forwarded', async () => {
    const user = await customer(uniqueNonce(SANDBOX_NONCES.declines));
    const order = await validOrder(user.token, places.accepts);
    const completed = await api.call('POST', order.order_completion_url, { token: user.token });
    const { last } = await pollLikeIos(api, completed.body.order.order_url, user.token);
    expect(last.status, last.text).toBe(422);
    expect(last.body).toEqual([{ error: { object: 'order', property: 'base', message: 'Sorry. We cannot charge the credit card at this time.' } }]);
    expect(await getOrder(order.uuid)).toBeUndefined();
    expect(await getProposedOrder(order.uuid)).toMatchObject({ state: 'rejected', rejection: { charge_reversed: false } });
    expect((await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).version).toBe(0);
  });

  it("over the merchant's card charge cap: rejected with the limit's 422, nothing charged, nothing forwarded", async () => {
    // docs/money.md, "Card charge limits": the order ($5.93) is over a $5 cap the merchant set at itself.
    await setChargeLimits({ merchantId: MERCHANT() }, { per_order_amount: 500 });
    try {
      const user = await customer();
      const order = await validOrder(user.token, places.accepts);
      const completed = await api.call('POST', order.order_completion_url, { token: user.token });
      const { last } = await pollLikeIos(api, completed.body.order.order_url, user.token);
      expect(last.status, last.text).toBe(422);
      expect(last.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'over_order_charge_limit' });
      expect(await getOrder(order.uuid)).toBeUndefined();
      expect(await getProposedOrder(order.uuid)).toMatchObject({ state: 'rejected', rejection: { charge_reversed: false } });
      expect((await getBalance(cardAccountKey(user.user.user_id, MERCHANT()))).version).toBe(0);
    } finally {
      await setChargeLimits({ merchantId: MERCHANT() }, null);
    }
  });

  it("refuses another user's order (404), an order that is not valid (422), and has no completion to show before the POST (404)", async () => {
    const owner = await customer();
    const order = await validOrder(owner.token, places.accepts);
    const stranger = await customer();
    const foreign = await api.call('POST', order.order_completion_url, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe('');
    expect((await api.call('GET', order.order_completion_url, { token: owner.token })).status).toBe(404);

    const started = await api.call('POST', '/v15/order_ahead/orders', {
      token: owner.token,
      body: {
        order: { location_id: places.accepts.location.location_id, conveyance: { fulfillment_type: 'pickup' }, items: [{ item: { id: 424242, quantity: 1 } }] },
      },
    });
    const invalid = await pollUntilSettled(api, started.body.order.order_url, owner.token);
    expect(invalid.last.status).toBe(422);
    const refused = await api.call('POST', `${started.body.order.order_url}/complete`, { token: owner.token });
    expect(refused.status).toBe(422);
    expect(refused.body[0].error.code).toBe('not_completable');

    // The completion of the owner's order is the owner's alone to poll.
    await api.call('POST', order.order_completion_url, { token: owner.token });
    const peek = await api.call('GET', order.order_completion_url, { token: stranger.token });
    expect(peek.status).toBe(404);
    expect(peek.text).toBe('');
    expect((await pollLikeIos(api, order.order_completion_url, owner.token)).last.status).toBe(200);
  });
});
