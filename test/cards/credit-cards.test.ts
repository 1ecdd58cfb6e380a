import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { cardFixture, uniqueNonce } from '../support/cards.ts';
import { SANDBOX_NONCES } from '#shared/payments/sandbox.ts';
import { getUser } from '#shared/domain/identity/users.ts';
import { getCreditCard, promotedCard } from '#shared/domain/cards/credit-cards.ts';

const api = useTestApi();
let appId: number;
beforeAll(async () => {
  appId = (await appFixture()).app.app_id;
});

async function newUser() {
  return userFixture(appId);
}

function addCard(token: string, nonce: string, field = 'gateway_payment_nonce') {
  return api.call('POST', '/v15/credit_cards', { token, body: { credit_card: { [field]: nonce } } });
}

const CARD_NOT_FOUND = [{ error: { object: 'credit_card', property: 'id', message: 'Credit card not found.', code: 'not_found' } }];

describe('POST /v15/credit_cards', () => {
  it('adds the card, active and promoted as the first card, storing no nonce', async () => {
    const { user, token } = await newUser();
    const response = await addCard(token, SANDBOX_NONCES.valid);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      credit_card: {
        bin: '411111',
        debit: false,
        description: 'Visa ending in 1111',
        expiration_month: expect.any(Number),
        expiration_year: expect.any(Number),
        id: expect.any(Number),
        last_4: '1111',
        nickname: 'Visa *1111',
        promoted: true,
        state: 'active',
        type: 'Visa',
      },
    });
    expect((await getUser(user.user_id))?.promoted_card_id).toBe(response.body.credit_card.id);
    const stored = await getCreditCard(user.user_id, response.body.credit_card.id);
    expect(stored?.gateway_token).toMatch(/^sbx_valid_/);
    expect(JSON.stringify(stored)).not.toContain(SANDBOX_NONCES.valid);
  });

  it('does not promote a second card', async () => {
    const { token } = await newUser();
    const first = await addCard(token, uniqueNonce());
    const second = await addCard(token, uniqueNonce());
    expect(second.status).toBe(200);
    expect(second.body.credit_card.promoted).toBe(false);
    expect(second.body.credit_card.id).not.toBe(first.body.credit_card.id);
  });

  it('accepts the branded braintree_payment_nonce field, with the postal code clients send beside it', async () => {
    const { token } = await newUser();
    const response = await api.call('POST', '/v15/credit_cards', {
      token,
      body: { credit_card: { braintree_payment_nonce: uniqueNonce(), postal_code: '12345' } },
    });
    expect(response.status).toBe(200);
    expect(response.body.credit_card.state).toBe('active');
  });

  it('answers an invalid expiration with the contract 422', async () => {
    const { token } = await newUser();
    const response = await addCard(token, SANDBOX_NONCES.invalidExpiration);
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ error: { object: 'credit_card', property: 'expiration_year', message: 'Expiration year is invalid.' } }]);
  });

  it("answers another user's card with the contract 422", async () => {
    const nonce = uniqueNonce();
    const owner = await newUser();
    expect((await addCard(owner.token, nonce)).status).toBe(200);
    const other = await newUser();
    const response = await addCard(other.token, nonce);
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ error: { object: 'credit_card', property: 'number', message: "Card already associated with another user's account" } }]);
    expect((await api.call('GET', '/v15/credit_cards', { token: other.token })).body).toEqual([]);
  });

  it('returns the existing card when the same user adds the same card again', async () => {
    const { token } = await newUser();
    const nonce = uniqueNonce();
    const first = await addCard(token, nonce);
    const again = await addCard(token, nonce);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await api.call('GET', '/v15/credit_cards', { token })).body).toHaveLength(1);
  });

  it('answers an unknown nonce with 422 on the field that carried it', async () => {
    const { token } = await newUser();
    const response = await addCard(token, 'tokencc_bf_not_a_sandbox_nonce', 'braintree_payment_nonce');
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'credit_card', property: 'braintree_payment_nonce', code: 'invalid' }) }]);
  });

  it('answers a missing nonce with 422 and changes nothing', async () => {
    const { token } = await newUser();
    for (const body of [
      { credit_card: {} },
      { credit_card: { gateway_payment_nonce: '  ', postal_code: '02114' } },
      { credit_card: { encrypted_number: ' ' } },
    ]) {
      const response = await api.call('POST', '/v15/credit_cards', { token, body });
      expect(response.status).toBe(422);
      expect(response.body).toEqual([
        { error: { object: 'credit_card', property: 'gateway_payment_nonce', message: "Gateway payment nonce can't be blank", code: 'missing' } },
      ]);
    }
    // Encrypted fields come as a set: once one is sent, the first missing one is named.
    const partial = await api.call('POST', '/v15/credit_cards', { token, body: { credit_card: { encrypted_number: '$bt4|x', encrypted_cvv: '$bt4|y' } } });
    expect(partial.status).toBe(422);
    expect(partial.body).toEqual([
      { error: { object: 'credit_card', property: 'encrypted_expiration_month', message: "Encrypted expiration month can't be blank", code: 'missing' } },
    ]);
    const wrongType = await api.call('POST', '/v15/credit_cards', { token, body: { credit_card: { gateway_payment_nonce: 42 } } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body[0].error).toMatchObject({ object: 'credit_card', property: 'gateway_payment_nonce' });
    expect((await api.call('GET', '/v15/credit_cards', { token })).body).toEqual([]);
  });

  it('requires the manage_user_payment_methods permission', async () => {
    const { token } = await userFixture(appId, { permissions: ['read_user_basic_info'] });
    const response = await addCard(token, uniqueNonce());
    expect(response.status).toBe(401);
  });

  it('lets exactly one of two users adding the same card at once have it', async () => {
    const nonce = uniqueNonce();
    const [first, second] = await Promise.all([newUser(), newUser()]);
    const responses = await Promise.all([addCard(first.token, nonce), addCard(second.token, nonce)]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 422]);
    expect(responses.find((response) => response.status === 422)?.body[0].error.property).toBe('number');
  });

  it('keeps exactly one promoted card when one user adds cards concurrently', async () => {
    const { token } = await newUser();
    const responses = await Promise.all([addCard(token, uniqueNonce()), addCard(token, uniqueNonce()), addCard(token, uniqueNonce())]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    const listed = (await api.call('GET', '/v15/credit_cards', { token })).body as { credit_card: { promoted: boolean } }[];
    expect(listed).toHaveLength(3);
    expect(listed.filter((entry) => entry.credit_card.promoted)).toHaveLength(1);
  });
});

describe('GET /v15/credit_cards', () => {
  it("lists the user's active cards oldest first, only theirs", async () => {
    const { user, token } = await newUser();
    const first = await cardFixture(user.user_id);
    const second = await cardFixture(user.user_id);
    await cardFixture((await newUser()).user.user_id);
    const response = await api.call('GET', '/v15/credit_cards', { token });
    expect(response.status).toBe(200);
    expect(response.body.map((entry: { credit_card: { id: number; promoted: boolean } }) => [entry.credit_card.id, entry.credit_card.promoted])).toEqual([
      [first.card.card_id, true],
      [second.card.card_id, false],
    ]);
    expect(Object.keys(response.body[0].credit_card).sort()).toEqual([
      'bin',
      'debit',
      'description',
      'expiration_month',
      'expiration_year',
      'id',
      'last_4',
      'nickname',
      'promoted',
      'state',
      'type',
    ]);
  });

  it('answers an empty array for a user without cards', async () => {
    const { token } = await newUser();
    const response = await api.call('GET', '/v15/credit_cards', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});

describe('DELETE /v14/credit_cards/:id', () => {
  it('deactivates the card and promotes the newest remaining active card', async () => {
    const { user, token } = await newUser();
    const promoted = await cardFixture(user.user_id);
    const older = await cardFixture(user.user_id);
    const newest = await cardFixture(user.user_id);
    const response = await api.call('DELETE', `/v14/credit_cards/${promoted.card.card_id}`, { token });
    expect(response.status).toBe(200);
    expect(response.body.credit_card).toMatchObject({ id: promoted.card.card_id, state: 'inactive', promoted: false });
    const listed = (await api.call('GET', '/v15/credit_cards', { token })).body;
    expect(listed.map((entry: { credit_card: { id: number; promoted: boolean } }) => [entry.credit_card.id, entry.credit_card.promoted])).toEqual([
      [older.card.card_id, false],
      [newest.card.card_id, true],
    ]);
    expect(await promotedCard(user.user_id)).toEqual({ cardId: newest.card.card_id, gatewayToken: newest.card.gateway_token });
  });

  it('leaves no promoted card when the last one is deleted, and promotes the next card added', async () => {
    const { user, token } = await newUser();
    const only = await cardFixture(user.user_id);
    expect((await api.call('DELETE', `/v14/credit_cards/${only.card.card_id}`, { token })).status).toBe(200);
    expect(await promotedCard(user.user_id)).toBeUndefined();
    expect((await getUser(user.user_id))?.promoted_card_id).toBeNull();
    const next = await addCard(token, uniqueNonce());
    expect(next.body.credit_card.promoted).toBe(true);
  });

  it('keeps the promoted card when another card is deleted', async () => {
    const { user, token } = await newUser();
    const promoted = await cardFixture(user.user_id);
    const other = await cardFixture(user.user_id);
    expect((await api.call('DELETE', `/v14/credit_cards/${other.card.card_id}`, { token })).status).toBe(200);
    expect(await promotedCard(user.user_id)).toEqual({ cardId: promoted.card.card_id, gatewayToken: promoted.card.gateway_token });
  });

  it('releases the card so it can be added again, by anyone', async () => {
    const nonce = uniqueNonce();
    const first = await newUser();
    const added = await addCard(first.token, nonce);
    await api.call('DELETE', `/v14/credit_cards/${added.body.credit_card.id}`, { token: first.token });
    const second = await newUser();
    const readded = await addCard(second.token, nonce);
    expect(readded.status).toBe(200);
    expect(readded.body.credit_card.id).not.toBe(added.body.credit_card.id);
  });

  it('answers 404 with the contract body for unknown, malformed and already deleted ids', async () => {
    const { user, token } = await newUser();
    const card = await cardFixture(user.user_id);
    expect((await api.call('DELETE', `/v14/credit_cards/${card.card.card_id}`, { token })).status).toBe(200);
    for (const id of [String(card.card.card_id), '999999999', 'abc', '0']) {
      const response = await api.call('DELETE', `/v14/credit_cards/${id}`, { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(CARD_NOT_FOUND);
    }
  });

  it("answers 404 for another user's card and leaves it alone", async () => {
    const owner = await newUser();
    const card = await cardFixture(owner.user.user_id);
    const intruder = await newUser();
    const response = await api.call('DELETE', `/v14/credit_cards/${card.card.card_id}`, { token: intruder.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(CARD_NOT_FOUND);
    expect((await api.call('GET', '/v15/credit_cards', { token: owner.token })).body[0].credit_card).toMatchObject({ id: card.card.card_id, state: 'active' });
  });

  it('deletes a card once when two deletes race', async () => {
    const { user, token } = await newUser();
    const card = await cardFixture(user.user_id);
    const responses = await Promise.all([
      api.call('DELETE', `/v14/credit_cards/${card.card.card_id}`, { token }),
      api.call('DELETE', `/v14/credit_cards/${card.card.card_id}`, { token }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 404]);
  });
});
