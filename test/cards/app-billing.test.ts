/**
 * The app's card and billing calls (SDK reference A11-A16) through HTTP, with the reference's payloads: the v14
 * card list (with `debit`), promotion (the promoted card is the one an order charges), the payment method, its
 * deactivation, the options summary and the payment preference.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { uniqueNonce } from '../support/cards.ts';
import { clientPayload, missingKeys } from '../support/client-payloads.ts';
import { SANDBOX_NONCES } from '#shared/payments/sandbox.ts';
import { DEFAULT_CHARGE_LIMITS } from '#shared/domain/money/charge-limits.ts';

const api = useTestApi();
const iosList = clientPayload('ios_v14_credit_cards__list.json');
const csharpList = clientPayload('csharp_v15_credit_cards__list.json');
const docsPromote = clientPayload('docs_v14_credit_cards_id__promote.json');
const iosMethod = clientPayload('ios_v15_payment_method__show_delete.json');
const iosOptions = clientPayload('ios_v15_payment_options_summary_and_preference.json');

const addCard = async (token: string, nonce: string) => {
  const response = await api.call('POST', '/v15/credit_cards', { token, body: { credit_card: { gateway_payment_nonce: nonce } } });
  expect(response.status, response.text).toBe(200);
  return response.body.credit_card as { id: number; last_4: string; type: string };
};

let appId: number;
beforeAll(async () => {
  appId = (await orderWorld()).app.app_id;
});

describe('GET /v14/credit_cards (A15)', () => {
  it('lists active cards with every field iOS, Android and C# read, debit included', async () => {
    const { token } = await userFixture(appId);
    const credit = await addCard(token, uniqueNonce());
    const debit = await addCard(token, uniqueNonce(SANDBOX_NONCES.validDebit));
    const response = await api.call('GET', '/v14/credit_cards', { token });
    expect(response.status).toBe(200);
    for (const variant of iosList.variants) expect(missingKeys(variant.response_body[0].credit_card, response.body[0].credit_card)).toEqual([]);
    expect(missingKeys(csharpList.response_body[0].credit_card, response.body[0].credit_card)).toEqual([]);
    expect(response.body.map((entry: { credit_card: object }) => entry.credit_card)).toEqual([
      expect.objectContaining({
        id: credit.id,
        debit: false,
        promoted: true,
        state: 'active',
        bin: '411111',
        expiration_month: expect.any(Number),
        expiration_year: expect.any(Number),
      }),
      expect.objectContaining({ id: debit.id, debit: true, promoted: false, state: 'active', bin: '400005', type: 'Visa' }),
    ]);
    for (const { credit_card: card } of response.body) {
      expect(typeof card.bin).toBe('string');
      expect(typeof card.last_4).toBe('string');
    }
    // The v15 list is the same list.
    expect((await api.call('GET', '/v15/credit_cards', { token })).body).toEqual(response.body);
  });
});

describe('PUT /v14/credit_cards/:id (A16)', () => {
  let world: OrderWorld;
  let valid: number;
  let declining: number;

  beforeAll(async () => {
    world = await orderWorld({ card: 'none' });
    valid = (await addCard(world.user.token, uniqueNonce())).id;
    declining = (await addCard(world.user.token, uniqueNonce(SANDBOX_NONCES.declines))).id;
  });

  it('promotes a card with no body: one promoted card, and orders charge it from then on', async () => {
    expect((await placeOrder(api, world, { spend_amount: 500 })).status).toBe(200);
    const promoted = await api.call('PUT', `/v14/credit_cards/${declining}`, { token: world.user.token });
    expect(promoted.status, promoted.text).toBe(200);
    expect(missingKeys(docsPromote.response_body.credit_card, promoted.body.credit_card)).toEqual([]);
    // The docs example's `state: "inactive"` is a slip (docs/payments.md): the state is unchanged.
    expect(promoted.body.credit_card).toMatchObject({ id: declining, promoted: true, state: 'active' });
    const listed = (await api.call('GET', '/v14/credit_cards', { token: world.user.token })).body;
    expect(
      listed
        .filter((entry: { credit_card: { promoted: boolean } }) => entry.credit_card.promoted)
        .map((entry: { credit_card: { id: number } }) => entry.credit_card.id),
    ).toEqual([declining]);
    // The declining card is now the one charged: the order is refused.
    const refused = await placeOrder(api, world, { spend_amount: 500 });
    expect(refused.status).toBe(422);
    // An old C# SDK's stray JSON string body is ignored.
    const back = await api.call('PUT', `/v14/credit_cards/${valid}`, { token: world.user.token, rawBody: JSON.stringify(`/v14/credit_cards/${valid}`) });
    expect(back.status, back.text).toBe(200);
    expect((await placeOrder(api, world, { spend_amount: 500 })).status).toBe(200);
    // Promoting the promoted card again changes nothing.
    expect((await api.call('PUT', `/v14/credit_cards/${valid}`, { token: world.user.token })).body.credit_card.promoted).toBe(true);
  });

  it("answers the documented 404 for an unknown, deleted or other user's card", async () => {
    const other = await userFixture(appId);
    const deleted = await addCard(world.user.token, uniqueNonce());
    expect((await api.call('DELETE', `/v14/credit_cards/${deleted.id}`, { token: world.user.token })).status).toBe(200);
    for (const [id, token] of [
      [999_999_999, world.user.token],
      [deleted.id, world.user.token],
      [valid, other.token],
    ] as const) {
      const response = await api.call('PUT', `/v14/credit_cards/${id}`, { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(docsPromote.errors[0].response_body);
    }
  });

  it('of ten concurrent promotions of two cards, the user ends with exactly one promoted card', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => api.call('PUT', `/v14/credit_cards/${index % 2 ? valid : declining}`, { token: world.user.token })),
    );
    for (const result of results) expect([200, 409]).toContain(result.status);
    const listed = (await api.call('GET', '/v14/credit_cards', { token: world.user.token })).body;
    expect(listed.filter((entry: { credit_card: { promoted: boolean } }) => entry.credit_card.promoted)).toHaveLength(1);
  });
});

describe('GET and DELETE /v15/payment_method, payment options and preference (A11-A14)', () => {
  it('answers 404 with no body for a user without a card', async () => {
    const { token } = await userFixture(appId);
    for (const method of ['GET', 'DELETE']) {
      const response = await api.call(method, '/v15/payment_method', { token });
      expect(response.status).toBe(404);
      expect(response.text).toBe('');
    }
  });

  it('shows the billed (promoted) card with the fields iOS reads (expiry as strings) and the preference chosen', async () => {
    const { token } = await userFixture(appId);
    const card = await addCard(token, uniqueNonce(SANDBOX_NONCES.validDebit));
    const shown = await api.call('GET', '/v15/payment_method', { token });
    expect(shown.status, shown.text).toBe(200);
    expect(missingKeys(iosMethod.variants[2].response_body.payment_method, shown.body.payment_method)).toEqual([]);
    expect(shown.body.payment_method).toMatchObject({
      type: 'debit_card',
      description: `Visa *${card.last_4}`,
      metadata: { issuer: 'Visa', last_4: card.last_4, expiration_month: expect.any(String), expiration_year: expect.any(String) },
      payment_preference_type: 'instant_billing',
      monthly_billing_day: null,
      monthly_transaction_limit_amount: null,
      preload_reload_threshold_amount: null,
      preload_value_amount: null,
    });

    const [preloadBody, monthlyBody] = iosOptions.set_preference.variants;
    const preload = await api.call('PUT', '/v15/apps/payment_preference', {
      token,
      body: { payment_preference: { ...preloadBody.request_body_template.payment_preference, preload_value_amount: 3000 } },
    });
    expect(preload.status, preload.text).toBe(200);
    expect(preload.text).toBe('');
    expect((await api.call('GET', '/v15/payment_method', { token })).body.payment_method).toMatchObject({
      payment_preference_type: 'preload',
      preload_value_amount: 3000,
      preload_reload_threshold_amount: iosOptions.response_body.payment_options_summary.preload_reload_threshold_amount,
      monthly_billing_day: null,
    });
    expect((await api.call('PUT', '/v15/apps/payment_preference', { token, body: monthlyBody.request_body })).status).toBe(200);
    expect((await api.call('GET', '/v15/payment_method', { token })).body.payment_method).toMatchObject({
      payment_preference_type: 'monthly_billing',
      monthly_billing_day: 1,
      // The monthly card charge limit of charges through the app: the default until the app sets its own (test/money/charge-limits.test.ts).
      monthly_transaction_limit_amount: DEFAULT_CHARGE_LIMITS.monthly_amount,
      preload_value_amount: null,
    });
  });

  it('refuses a preload amount out of bounds and a body without the choice, changing nothing', async () => {
    const { token } = await userFixture(appId);
    for (const body of [
      { payment_preference: { preload: true, preload_value_amount: 10 } },
      { payment_preference: { preload: true, preload_value_amount: 10_000_000 } },
      { payment_preference: {} },
      {},
    ]) {
      const response = await api.call('PUT', '/v15/apps/payment_preference', { token, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
  });

  it('deactivates the billed card: it leaves the list, and the next card is billed', async () => {
    const { token } = await userFixture(appId);
    const first = await addCard(token, uniqueNonce());
    const second = await addCard(token, uniqueNonce());
    const removed = await api.call('DELETE', '/v15/payment_method', { token });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.text).toBe('');
    const listed = (await api.call('GET', '/v14/credit_cards', { token })).body.map(
      (entry: { credit_card: { id: number; promoted: boolean } }) => entry.credit_card,
    );
    expect(listed).toEqual([expect.objectContaining({ id: second.id, promoted: true })]);
    expect(listed.some((card: { id: number }) => card.id === first.id)).toBe(false);
    expect((await api.call('GET', '/v15/payment_method', { token })).body.payment_method.metadata.last_4).toBe(second.last_4);
  });

  it('summarises the options with every field iOS reads', async () => {
    for (const token of [undefined, (await userFixture(appId)).token]) {
      const response = await api.call('GET', '/v15/payment_options_summary', { token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(iosOptions.response_body);
    }
  });
});
