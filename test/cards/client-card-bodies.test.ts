import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { getCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import { LIMITED_FUNDS_AMOUNT, SANDBOX_CARD_NUMBERS, sandboxEncrypt } from '#shared/payments/sandbox.ts';

/**
 * The v15 SDK card body: the C# and iOS SDKs send client-side encrypted card fields instead of a
 * nonce. Each test takes the client's own body from the fixtures and puts the sandbox's encrypted
 * values (docs/payments.md) where the client's encryption library puts its ciphertexts.
 */

const api = useTestApi();
let appId: number;
beforeAll(async () => {
  appId = (await appFixture()).app.app_id;
});

interface SandboxCard {
  number: string;
  month?: string;
  year?: string;
  cvv?: string;
}

/** The client's body with the sandbox's ciphertexts in its encrypted fields; every other field as the client sends it. */
function clientBody(template: { credit_card: Record<string, string> }, card: SandboxCard) {
  const plaintexts: Record<string, string> = {
    encrypted_number: card.number,
    encrypted_cvv: card.cvv ?? '123',
    encrypted_expiration_month: card.month ?? '7',
    encrypted_expiration_year: card.year ?? String(new Date().getUTCFullYear() + 3),
  };
  const fields = Object.keys(template.credit_card);
  expect(fields.filter((field) => field.startsWith('encrypted_')).sort()).toEqual(Object.keys(plaintexts).sort());
  return {
    credit_card: Object.fromEntries(fields.map((field) => [field, field in plaintexts ? sandboxEncrypt(plaintexts[field]!) : template.credit_card[field]!])),
  };
}

const csharp = clientPayload('csharp_v15_credit_cards__create.json');
const csharpError = clientPayload('csharp_v15_credit_cards__create_error_422.json');
const ios = clientPayload('ios_v15_credit_cards__create.json');
const docs = clientPayload('docs_v14_credit_cards__create.json');
// The iOS body is a template (its encryption fills the values in); the postal code is the one value a user types.
const iosTemplate = { credit_card: { ...ios.request_body_template.credit_card, postal_code: '02114' } };
/** A card no other test uses: the test card number with a unique suffix (docs/payments.md). */
const unique = (number: string) => `${number}-${randomUUID()}`;

function create(token: string, body: unknown) {
  return api.call('POST', '/v15/credit_cards', { token, body });
}

describe("POST /v15/credit_cards with the SDKs' encrypted card body", () => {
  it('creates a card from the C# body, answering the fields the C# client parses with their types', async () => {
    const { user, token } = await userFixture(appId);
    const body = clientBody(csharp.request_body, { number: SANDBOX_CARD_NUMBERS.visa, month: '7', year: '2031' });
    expect(body.credit_card.postal_code).toBe('12345');
    const response = await create(token, body);
    expect(response.status).toBe(csharp.response_status);
    expect(Object.keys(response.body.credit_card)).toEqual(expect.arrayContaining(Object.keys(csharp.response_body.credit_card)));
    expect(response.body.credit_card).toMatchObject({
      bin: '411111',
      description: 'Visa ending in 1111',
      expiration_month: 7,
      expiration_year: 2031,
      id: expect.any(Number),
      last_4: '1111',
      promoted: true,
      state: 'active',
      type: 'Visa',
    });
    // Never stored: the card number, the ciphertexts, the CVV, the postal code.
    const stored = JSON.stringify(await getCreditCard(user.user_id, response.body.credit_card.id));
    for (const secret of [SANDBOX_CARD_NUMBERS.visa, body.credit_card.encrypted_number, body.credit_card.encrypted_cvv, '12345'])
      expect(stored).not.toContain(secret);
  });

  it('creates a card from the iOS body, with what the iOS client reads', async () => {
    const { token } = await userFixture(appId);
    const response = await create(token, clientBody(iosTemplate, { number: SANDBOX_CARD_NUMBERS.mastercard, month: '11', year: '2033' }));
    expect(response.status).toBe(ios.response_status);
    const expected = ios.response_body.credit_card;
    expect(response.body.credit_card).toMatchObject({
      promoted: true,
      description: expected.description,
      last_4: expected.last_4,
      type: expected.type,
      expiration_month: 11,
      expiration_year: 2033,
    });
  });

  it("answers an expired card with the C# client's 422, and changes nothing", async () => {
    const { token } = await userFixture(appId);
    const response = await create(token, clientBody(csharp.request_body, { number: unique(SANDBOX_CARD_NUMBERS.visa), year: '2015' }));
    expect(response.status).toBe(csharpError.response_status);
    expect(response.body).toEqual(csharpError.response_body);
    expect(response.body).toEqual(docs.errors[0].response_body);
    expect((await api.call('GET', '/v15/credit_cards', { token })).body).toEqual([]);
  });

  it("answers another user's card with the contract's 422 (credit_card / number)", async () => {
    const number = unique(SANDBOX_CARD_NUMBERS.visa);
    const owner = await userFixture(appId);
    expect((await create(owner.token, clientBody(csharp.request_body, { number }))).status).toBe(200);
    const other = await userFixture(appId);
    const response = await create(other.token, clientBody(iosTemplate, { number }));
    expect(response.status).toBe(422);
    // The v14 docs word it differently; the contract's message wins.
    expect(docs.errors[1].response_body[0].error).toMatchObject({ object: 'credit_card', property: 'number' });
    expect(response.body).toEqual([{ error: { object: 'credit_card', property: 'number', message: "Card already associated with another user's account" } }]);
  });

  it('returns the same card when its owner sends it again, by either body', async () => {
    const { token } = await userFixture(appId);
    const number = unique(SANDBOX_CARD_NUMBERS.visa);
    const first = await create(token, clientBody(csharp.request_body, { number }));
    const again = await create(token, clientBody(iosTemplate, { number }));
    expect(again.status).toBe(200);
    expect(again.body.credit_card.id).toBe(first.body.credit_card.id);
  });

  it('adds the declining and the limited-funds cards, whose charges behave as their nonces do', async () => {
    const { user, token } = await userFixture(appId);
    const declining = await create(token, clientBody(csharp.request_body, { number: unique(SANDBOX_CARD_NUMBERS.declines) }));
    const limited = await create(token, clientBody(csharp.request_body, { number: unique(SANDBOX_CARD_NUMBERS.limitedFunds) }));
    expect([declining.status, limited.status]).toEqual([200, 200]);
    const tokenOf = async (id: number) => (await getCreditCard(user.user_id, id))!.gateway_token;
    const charge = async (id: number, amount: number, allowPartial: boolean) =>
      paymentGateway().charge({ gatewayToken: await tokenOf(id), amount, allowPartial, idempotencyKey: randomUUID() });
    expect(await charge(declining.body.credit_card.id, 100, true)).toEqual({ ok: false, reason: 'declined' });
    expect(await charge(limited.body.credit_card.id, 4000, false)).toEqual({ ok: false, reason: 'insufficient_funds' });
    expect(await charge(limited.body.credit_card.id, 4000, true)).toMatchObject({ ok: true, amount: LIMITED_FUNDS_AMOUNT });
  });

  it("answers the client's real ciphertexts, which only LevelUp's gateway key opens, with a clear 422", async () => {
    const { token } = await userFixture(appId);
    const response = await create(token, csharp.request_body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'credit_card', property: 'encrypted_number', code: 'invalid' }) }]);
  });

  it('answers a number that is not a test card, a bad month and a bad CVV with 422s naming them', async () => {
    const { token } = await userFixture(appId);
    const cases: [SandboxCard, string][] = [
      [{ number: '4242424242424241' }, 'number'],
      [{ number: unique(SANDBOX_CARD_NUMBERS.visa), month: '13' }, 'expiration_month'],
      [{ number: unique(SANDBOX_CARD_NUMBERS.visa), cvv: '12' }, 'cvv'],
    ];
    for (const [card, property] of cases) {
      const response = await create(token, clientBody(csharp.request_body, card));
      expect(response.status).toBe(422);
      expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'credit_card', property }) }]);
    }
  });
});
