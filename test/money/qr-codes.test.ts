/**
 * The QR code the apps show (SDK reference A9, A10) through HTTP: GET /v15/qr_codes as the Ruby gem calls it,
 * the string's v3 preferences suffix (the iOS SDK's test vectors), the PNG form, the payment token on v15
 * and v14 with its banner and the documented 404, and the round trip: a tip chosen in the app is charged
 * when a POS completes an order with that string.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { orderWorld, propose, complete, type OrderWorld } from '../support/money.ts';
import { clientPayload, missingKeys } from '../support/client-payloads.ts';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { encodePaymentCode, parsePaymentCode } from '#shared/domain/cards/payment-codes.ts';
import { sandboxEncrypt } from '#shared/payments/sandbox.ts';
import { auditLedger, cardAccountKey, getBalance } from '#shared/domain/money/ledger.ts';

const api = useTestApi();
const docsQr = clientPayload('docs_v15_qr_codes__show.json');
const iosVectors = clientPayload('ios_qr_code_payment_string.json');
const csharpToken = clientPayload('csharp_v15_payment_token__show.json');
const iosToken = clientPayload('ios_v15_payment_token__show.json');
let world: OrderWorld;
let data: string;

beforeAll(async () => {
  world = await orderWorld();
  data = world.user.user.payment_token_data;
});

/** The Ruby gem: `token user="..."`, a JSON body `{}` on the GET, the three preferences with unescaped brackets. */
const rubyGet = (query: string, token = world.user.token) => api.call('GET', `/v15/qr_codes?${query}`, { authorization: `token user="${token}"`, body: {} });

describe('GET /v15/qr_codes (A9)', () => {
  it("answers the Ruby gem's call (all three preferences, 0 = no tip) with qr_code.code: the token and a no-tip suffix", async () => {
    const response = await rubyGet('preferences[color]=0&preferences[tip_amount]=0&preferences[tip_percent]=0');
    expect(response.status, response.text).toBe(200);
    expect(missingKeys(docsQr.response_body.qr_code, response.body.qr_code)).toEqual([]);
    expect(response.body).toEqual({ qr_code: { code: `${data}030000LU` } });
  });

  it("encodes the docs example (colour 0, 10 %) as the docs show it: '...0300A0LU'", async () => {
    const response = await api.call('GET', '/v15/qr_codes?preferences[color]=0&preferences[tip_percent]=10', { token: world.user.token });
    expect(response.body.qr_code.code).toBe(`${data}0300A0LU`);
    expect(response.body.qr_code.code.slice(-8)).toBe(docsQr.response_body.qr_code.code.slice(-8));
  });

  it('encodes tips as the iOS SDK does (all its test vectors: a cent tip is 1296 + cents in base 36, clamped as iOS clamps)', async () => {
    for (const vector of iosVectors.vectors) {
      const tip =
        vector.tip_percent !== undefined
          ? { kind: 'percent' as const, percent: vector.tip_percent }
          : { kind: 'amount' as const, amount: vector.tip_amount_cents };
      expect(encodePaymentCode(vector.token, { tip, color: vector.color }), JSON.stringify(vector)).toBe(vector.result);
    }
    // Through HTTP, a $20.00 tip in colour 3: 1296 + 2000 = 3296 = "2JK".
    const response = await api.call('GET', '/v15/qr_codes?preferences[color]=3&preferences[tip_amount]=2000', { token: world.user.token });
    expect(response.body.qr_code.code).toBe(`${data}032JK3LU`);
    expect(parsePaymentCode(response.body.qr_code.code)).toEqual({ tokenData: data, preferences: { tip: { kind: 'amount', amount: 2000 }, color: 3 } });
  });

  it('answers 422 qr_code/base "Payment preferences are invalid" for a tip over the limits, both tips, or a colour out of 0-9', async () => {
    for (const query of [
      'preferences[color]=0&preferences[tip_percent]=101',
      'preferences[color]=0&preferences[tip_percent]=10&preferences[tip_amount]=100',
      'preferences[color]=10',
      'preferences[tip_percent]=10',
      'preferences[color]=abc',
      'preferences[color]=1&preferences[tip_amount]=-5',
      'preferences[color]=1&preferences[tip_amount]=45360',
    ]) {
      const response = await api.call('GET', `/v15/qr_codes?${query}`, { token: world.user.token });
      expect(response.status, query).toBe(422);
      expect(response.body).toEqual(docsQr.errors[0].response_body.map((entry: { error: object }) => ({ error: { ...entry.error, code: 'invalid' } })));
    }
  });

  it('answers a PNG of the code when the client asks for image/png, `width` pixels wide', async () => {
    const response = await fetch(`${api.baseUrl}/v15/qr_codes?preferences[color]=2&preferences[tip_percent]=15&width=240`, {
      headers: { Accept: 'image/png', Authorization: `token ${world.user.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: width and height, big-endian, at bytes 16-23.
    expect(png.readUInt32BE(16)).toBe(240);
    expect(png.readUInt32BE(20)).toBe(240);
    const tooWide = await api.call('GET', '/v15/qr_codes?preferences[color]=2&width=100000', { token: world.user.token, headers: { Accept: 'image/png' } });
    expect(tooWide.status).toBe(422);
    expect(tooWide.body[0].error).toMatchObject({ object: 'qr_code', property: 'width' });
  });

  it('needs read_qr_code', async () => {
    const limited = await userFixture(world.app.app_id, { permissions: ['read_user_basic_info'] });
    expect((await rubyGet('preferences[color]=0', limited.token)).status).toBe(401);
  });
});

describe('the QR round trip: the tip chosen in the app is charged by the POS completion (A9 + P1 + completed orders)', () => {
  async function orderWith(code: string, spend: number, fields: Record<string, unknown> = {}) {
    const proposed = await propose(api, world, { payment_token_data: code, spend_amount: spend });
    expect(proposed.status, proposed.text).toBe(200);
    return complete(api, world, proposed.body.proposed_order.uuid, { payment_token_data: code, spend_amount: spend, ...fields });
  }

  it('a 15 % tip on a $12.00 check: 180 cents of tip, charged to the card with the spend', async () => {
    const code = (await api.call('GET', '/v15/qr_codes?preferences[color]=4&preferences[tip_percent]=15', { token: world.user.token })).body.qr_code.code;
    const cardBefore = (await getBalance(cardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;
    const completed = await orderWith(code, 1200);
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.order).toMatchObject({ spend_amount: 1200, tip_amount: 180, total_amount: 1380 });
    const cardAfter = (await getBalance(cardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;
    expect(cardAfter - cardBefore).toBe(1380);
  });

  it('a $2.50 tip (cents form) is added as is; a tip the POS sends wins over the code’s', async () => {
    const code = (await rubyGet('preferences[color]=1&preferences[tip_amount]=250&preferences[tip_percent]=0')).body.qr_code.code;
    expect((await orderWith(code, 1000)).body.order).toMatchObject({ tip_amount: 250, total_amount: 1250 });
    expect((await orderWith(code, 1000, { tip_amount: 0 })).body.order).toMatchObject({ tip_amount: 0, total_amount: 1000 });
    expect((await orderWith(code, 1000, { tip_amount: 75 })).body.order).toMatchObject({ tip_amount: 75, total_amount: 1075 });
  });

  it('the unsuffixed token still works (no tip), and a phone-made code over 100 % is refused, changing nothing', async () => {
    expect((await orderWith(data, 800)).body.order).toMatchObject({ tip_amount: 0, total_amount: 800 });
    const greedy = encodePaymentCode(data, { tip: { kind: 'percent', percent: 500 }, color: 0 });
    const refused = await orderWith(greedy, 800);
    expect(refused.status).toBe(422);
    expect(refused.body[0].error).toMatchObject({ object: 'order', property: 'payment_token_data', message: 'Payment preferences are invalid' });
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

describe('GET /v15/payment_token and /v14/payment_token (A10)', () => {
  it('answers a user with a card the token with action and message null, with every field the C# and iOS SDKs read', async () => {
    for (const version of ['v15', 'v14']) {
      const response = await api.call('GET', `/${version}/payment_token`, { token: world.user.token });
      expect(response.status, response.text).toBe(200);
      expect(missingKeys(csharpToken.response_body.payment_token, response.body.payment_token)).toEqual([]);
      expect(missingKeys(iosToken.variants[0].response_body.payment_token, response.body.payment_token)).toEqual([]);
      expect(response.body.payment_token).toEqual({ data, id: world.user.user.payment_token_id, action: null, message: null });
    }
  });

  it('v15 gives a user without a card the token for loyalty with action add_payment_method; v14 answers the documented 404', async () => {
    const { token, user } = await userFixture(world.app.app_id);
    const v15 = await api.call('GET', '/v15/payment_token', { token });
    expect(v15.status).toBe(200);
    expect(v15.body.payment_token).toEqual({ ...iosToken.variants[2].response_body.payment_token, data: user.payment_token_data, id: user.payment_token_id });
    const v14 = await api.call('GET', '/v14/payment_token', { token });
    expect(v14.status).toBe(404);
    expect(v14.body).toEqual(iosToken.variants[3].response_body);
  });

  it('warns of a card that expires this month or next (the iOS banner)', async () => {
    const { token, user } = await userFixture(world.app.app_id);
    const now = new Date();
    await addCreditCard(user.user_id, {
      kind: 'encrypted',
      card: {
        number: sandboxEncrypt(`4111111111111111-${randomUUID()}`),
        cvv: sandboxEncrypt('123'),
        expirationMonth: sandboxEncrypt(now.getUTCMonth() + 1),
        expirationYear: sandboxEncrypt(now.getUTCFullYear()),
      },
    });
    const response = await api.call('GET', '/v15/payment_token', { token });
    expect(response.body.payment_token).toMatchObject({ action: null, message: iosToken.variants[1].response_body.payment_token.message });
  });
});
