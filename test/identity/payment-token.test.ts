/**
 * The QR code as a bearer credential (issue 12, point 7; docs/identity.md "Payment token"), through HTTP
 * against the local stack: the same code pays for many purchases, a rotation kills the old code at once,
 * concurrent rotations leave exactly one live code, and an expired code is refused while reading the token
 * renews it.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { setStoredAttributes } from '../support/stored-items.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { PAYMENT_TOKEN_LIFETIME_SECONDS, PAYMENT_TOKEN_RENEWAL_SECONDS } from '#shared/domain/cards/payment-tokens.ts';
import { useTestApi } from '../support/api.ts';
import { complete, loadGiftCard, orderWorld, propose, type OrderWorld } from '../support/money.ts';

const api = useTestApi();
let world: OrderWorld;

beforeAll(async () => {
  world = await orderWorld({ card: 'valid' });
});

const USER_NOT_AUTHORIZED = [
  { error: { object: 'order', property: 'user_token', message: 'Not authorized to create orders for this user.', code: 'not_authorized' } },
];

/** A purchase with the given code: proposed, then completed (charged). */
async function buyWith(code: string, spend = 500) {
  const proposed = await propose(api, world, { payment_token_data: code, spend_amount: spend });
  if (proposed.status !== 200) return proposed;
  return complete(api, world, proposed.body.proposed_order.uuid, { payment_token_data: code, spend_amount: spend });
}

async function showToken(token = world.user.token) {
  const response = await api.call('GET', '/v15/payment_token', { token });
  expect(response.status, response.text).toBe(200);
  return response.body.payment_token as { data: string; id: number };
}

function rotate(token = world.user.token) {
  return api.call('POST', '/v15/payment_token/rotations', { token });
}

/** Moves the user's current code to `secondsLeft` before its end (the QR item and the user item), as if time had passed. */
async function ageCurrentCode(userId: number, code: string, secondsLeft: number) {
  const expiresAt = Math.floor(Date.now() / 1000) + secondsLeft;
  await setStoredAttributes(keys.paymentToken(code), { expires_at: expiresAt });
  await setStoredAttributes(keys.user(userId), { payment_token_expires_at: expiresAt });
}

async function liveCodesOf(userId: number): Promise<string[]> {
  const scan = await db().send(
    new ScanCommand({
      TableName: table(),
      FilterExpression: 'entity = :qr AND user_id = :user',
      ExpressionAttributeValues: { ':qr': 'PaymentToken', ':user': userId },
    }),
  );
  return (scan.Items ?? []).map((item) => String(item.pk).slice('QR#'.length));
}

describe('payment token lifetime and rotation', () => {
  it('the same code pays for many purchases', async () => {
    const code = (await showToken()).data;
    for (let purchase = 0; purchase < 4; purchase++) {
      const response = await buyWith(code);
      expect(response.status, response.text).toBe(200);
    }
    expect((await showToken()).data).toBe(code);
  });

  it('a rotation answers a new code and the old one stops working at once (orders and gift card loads)', async () => {
    const old = await showToken();
    const rotated = await rotate();
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.headers.get('x-content-type-options')).toBe('nosniff');
    const fresh = rotated.body.payment_token as { data: string; id: number };
    expect(fresh.data).toMatch(/^LU02[0-9A-F]{32}LU$/);
    expect(fresh.data).not.toBe(old.data);
    expect(fresh.id).not.toBe(old.id);
    // The read adds the banner fields (action, message: docs/payments.md) to the same token.
    expect(await showToken()).toMatchObject(fresh);

    const proposal = await propose(api, world, { payment_token_data: old.data });
    expect(proposal.status).toBe(401);
    expect(proposal.body).toEqual(USER_NOT_AUTHORIZED);
    const merchantId = world.merchant.merchant.merchant_id;
    const load = await loadGiftCard(api, world.merchant.token, merchantId, { payment_token_data: old.data, value_amount: 1000 });
    expect(load.status).toBe(422);
    expect(load.body[0].error).toMatchObject({ object: 'gift_card_value_addition', property: 'base' });

    expect((await buyWith(fresh.data)).status).toBe(200);
    expect((await loadGiftCard(api, world.merchant.token, merchantId, { payment_token_data: fresh.data, value_amount: 1000 })).status).toBe(200);
  });

  it('an order proposed with the old code cannot be completed once the code is rotated', async () => {
    const code = (await showToken()).data;
    const proposed = await propose(api, world, { payment_token_data: code, spend_amount: 700 });
    expect(proposed.status).toBe(200);
    expect((await rotate()).status).toBe(200);
    const completion = await complete(api, world, proposed.body.proposed_order.uuid, { payment_token_data: code, spend_amount: 700 });
    expect(completion.status).toBe(401);
    expect(completion.body).toEqual(USER_NOT_AUTHORIZED);
  });

  it('10 concurrent rotations leave exactly one live code: the one the user is shown', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => rotate()));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const shown = await showToken();
    expect(await liveCodesOf(world.user.user.user_id)).toEqual([shown.data]);
    for (const code of new Set(answers.map((answer) => answer.body.payment_token.data as string))) {
      if (code === shown.data) continue;
      expect((await propose(api, world, { payment_token_data: code })).status).toBe(401);
    }
    expect((await buyWith(shown.data)).status).toBe(200);
  });

  it('an expired code is refused; reading the token then issues a new one', async () => {
    const code = (await showToken()).data;
    await ageCurrentCode(world.user.user.user_id, code, -1);
    expect((await propose(api, world, { payment_token_data: code })).status).toBe(401);
    const renewed = await showToken();
    expect(renewed.data).not.toBe(code);
    expect(await liveCodesOf(world.user.user.user_id)).toEqual([renewed.data]);
    expect((await buyWith(renewed.data)).status).toBe(200);
  });

  it('reading renews a code with less than the renewal margin left, and keeps one with more', async () => {
    const code = (await showToken()).data;
    await ageCurrentCode(world.user.user.user_id, code, PAYMENT_TOKEN_RENEWAL_SECONDS + 3600);
    expect((await showToken()).data).toBe(code);
    await ageCurrentCode(world.user.user.user_id, code, PAYMENT_TOKEN_RENEWAL_SECONDS - 3600);
    const renewed = await showToken();
    expect(renewed.data).not.toBe(code);
    // Still valid until replaced: the old code worked up to the renewal; now only the new one does.
    expect((await propose(api, world, { payment_token_data: code })).status).toBe(401);
    expect((await propose(api, world, { payment_token_data: renewed.data })).status).toBe(200);
  });

  it('a new code lasts the documented lifetime', async () => {
    const rotated = await rotate();
    const scan = await db().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.paymentToken(rotated.body.payment_token.data).pk },
      }),
    );
    const expiresAt = Number(scan.Items?.[0]?.expires_at);
    const expected = Math.floor(Date.now() / 1000) + PAYMENT_TOKEN_LIFETIME_SECONDS;
    expect(Math.abs(expiresAt - expected)).toBeLessThanOrEqual(5);
    expect(scan.Items?.[0]?.ttl).toBe(expiresAt);
  });

  it("a rotation replaces only the caller's code", async () => {
    const other = await orderWorld({ card: 'valid' });
    const before = await showToken(other.user.token);
    expect((await rotate()).status).toBe(200);
    expect(await showToken(other.user.token)).toEqual(before);
    expect((await propose(api, other, { payment_token_data: before.data })).status).toBe(200);
  });

  it('needs a user token with read_qr_code', async () => {
    expect((await rotate('f'.repeat(64))).status).toBe(401);
    expect((await api.call('POST', '/v15/payment_token/rotations', { token: world.merchant.token })).status).toBe(401);
    const limited = await api.call('POST', '/v15/access_tokens/downgrades', {
      token: world.user.token,
      body: { access_token: { permission_keynames: ['read_user_basic_info'] } },
    });
    expect(limited.status).toBe(200);
    expect((await rotate(limited.body.access_token.token)).status).toBe(401);
  });
});
