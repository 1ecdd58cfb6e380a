/**
 * Gift card value orders (A17) for an email with no account (issue 34 point 5, issue 33 point 7), through HTTP
 * with the clients' own bodies: the order answers exactly as for a registered recipient; the value is held for
 * the email (charged once, a `held` liability in the ledger) and the recipient is mailed; an account created
 * with that email (iOS's or Android's sign-up), or one that takes the email, receives it exactly once, even
 * when sign-ups race each other or the gift; unclaimed, it goes back to the buyer's card; the buyer's orders
 * are rate-limited. The ledger audits to zero after each.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { observeGateway } from '../support/gateway.ts';
import { mailTo } from '../support/mailbox.ts';
import { runAdmin } from '../support/admin.ts';
import { startEventPipeline } from '../support/webhooks.ts';
import { walkPages } from '../support/paging.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { auditLedger, cardAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { heldAccountKey, MAX_HELD_GIFTS_PER_EMAIL, returnUnclaimedGifts, UNCLAIMED_GIFT_DAYS } from '#shared/domain/money/held-gifts.ts';
import { clearWindow, GIFT_CARD_ORDERS_PER_BUYER } from '#shared/domain/rate-limits.ts';
import { GIFT_CARD_ORDERS_PAGE_SIZE } from '#shared/domain/money/gift-card-orders.ts';

const api = useTestApi();
const gateway = observeGateway();
const giftPayload = clientPayload('ios_v15_users_gift_card_value_orders__create.json');
const iosSignUp = clientPayload('ios_v15_apps_users__create.json').request_body_template;
const androidSignUp = clientPayload('android_v15_users__create_with_permissions.json').request_body_template;
let signUpApp: Awaited<ReturnType<typeof appFixture>>;
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;

beforeAll(async () => {
  signUpApp = await appFixture();
  pipeline = await startEventPipeline(api);
});

afterAll(async () => {
  await pipeline?.stop();
});

const newEmail = () => `friend-${randomUUID()}@example.com`;
const balance = async (account: string) => (await getBalance(account)).balance;

function gift(world: OrderWorld, recipientEmail: string, valueAmount = 2500, merchantId = world.merchant.merchant.merchant_id) {
  return api.call('POST', '/v15/users/gift_card_value_orders', {
    token: world.user.token,
    body: {
      gift_card_value_order: {
        ...giftPayload.request_body_template.gift_card_value_order,
        merchant_id: merchantId,
        recipient_email: recipientEmail,
        recipient_message: 'Happy birthday!',
        recipient_name: 'Friend',
        value_amount: valueAmount,
      },
    },
  });
}

/** iOS's sign-up (POST /v15/apps/users with the app's api_key), asking for the QR code. */
function signUpIos(email: string) {
  return api.call('POST', '/v15/apps/users', {
    body: { ...iosSignUp, api_key: signUpApp.apiKey, user: { email, first_name: 'New', last_name: 'Friend' }, permission_keynames: ['read_qr_code'] },
  });
}

/** Android's sign-up (POST /v15/users). */
function signUpAndroid(email: string) {
  return api.call('POST', '/v15/users', {
    body: {
      ...androidSignUp,
      api_key: signUpApp.apiKey,
      user: { ...androidSignUp.user, email, first_name: 'New', last_name: 'Friend' },
      permission_keynames: ['read_qr_code'],
    },
  });
}

/** What a prober could compare: status, the answer's fields and types, every header but the per-request ones. */
function observable(response: Awaited<ReturnType<typeof gift>>) {
  const perRequest = new Set(['date', 'x-request-id', 'content-length']);
  const headers = [...response.headers.entries()].filter(([name]) => !perRequest.has(name)).sort();
  const fields = Object.entries(response.body.gift_card_value_order ?? {}).map(([name, value]) => [name, typeof value]);
  return { status: response.status, headers, fields };
}

type SentGift = { gift_card_value_order: { uuid: string; state: string; [field: string]: unknown } };

/**
 * The buyer's list of the gift card orders they sent (GET /v15/users/gift_card_value_orders), walked as every
 * list is (test/support/paging.ts: a Link on every page, the last one too, then 204 with no body and no Link).
 */
async function sentGiftPages(world: OrderWorld) {
  return walkPages<SentGift>(api, '/v15/users/gift_card_value_orders', {
    call: { token: world.user.token },
    keyOf: (entry) => entry.gift_card_value_order.uuid,
  });
}

async function sentGifts(world: OrderWorld) {
  return (await sentGiftPages(world)).items.map((entry) => entry.gift_card_value_order);
}

/** The gift's value is on the user's gift card at the merchant, and nothing is left held for the email. */
async function expectClaimedBy(userId: number, email: string, merchantId: number, amount: number) {
  expect(await balance(giftCardAccountKey(userId, merchantId))).toBe(amount);
  expect(await balance(heldAccountKey(email, merchantId))).toBe(0);
}

async function expectBalancedLedger() {
  const audit = await auditLedger();
  expect(audit.mismatches).toEqual([]);
  expect(audit.total).toBe(0);
}

/** The gift card value a merchant's POS sees for the user behind `token` (their QR code at the location). */
async function giftCardAtPos(world: OrderWorld, token: string): Promise<number> {
  const code = await api.call('GET', '/v15/payment_token', { token });
  expect(code.status, code.text).toBe(200);
  const credit = await api.call(
    'GET',
    `/v15/locations/${world.location.location_id}/merchant_funded_credit?payment_token_data=${code.body.payment_token.data}`,
    { token: world.merchant.token },
  );
  expect(credit.status, credit.text).toBe(200);
  return credit.body.merchant_funded_credit.gift_card_amount;
}

describe('a gift card order for an email with no account', () => {
  it('answers as for a registered recipient, holds the value, mails the recipient, and credits the account they sign up with (iOS bodies)', async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    const registered = await userFixture(world.app.app_id);
    const email = newEmail();
    const buyerCard = cardAccountKey(world.user.user.user_id, merchantId);

    const toRegistered = await gift(world, registered.email);
    const toUnknown = await gift(world, email);
    expect(toUnknown.status, toUnknown.text).toBe(200);
    expect(observable(toUnknown)).toEqual(observable(toRegistered));
    expect(toUnknown.body.gift_card_value_order).toMatchObject({ added_value_amount: 2500, merchant_id: merchantId, recipient_email: email });
    expect(Object.keys(toUnknown.body.gift_card_value_order)).toEqual(expect.arrayContaining(Object.keys(giftPayload.response_body.gift_card_value_order)));

    // Charged once for each; the unknown recipient's value is held for their email, a liability in the ledger.
    expect(await balance(buyerCard)).toBe(5000);
    expect(await balance(giftCardAccountKey(registered.user.user_id, merchantId))).toBe(2500);
    expect(await balance(heldAccountKey(email, merchantId))).toBe(2500);
    await expectBalancedLedger();
    // The buyer sees which gift waits for its recipient, and until when.
    expect(await sentGifts(world)).toEqual([
      expect.objectContaining({
        uuid: toUnknown.body.gift_card_value_order.uuid,
        recipient_email: email,
        value_amount: 2500,
        state: 'pending',
        pending_until: expect.any(String),
      }),
      expect.objectContaining({
        uuid: toRegistered.body.gift_card_value_order.uuid,
        recipient_email: registered.email,
        state: 'delivered',
        pending_until: null,
      }),
    ]);

    // The recipient is told to sign up with that email.
    const [mail] = await mailTo(email, { timeoutMs: 15_000 });
    expect(mail!.subject).toBe(`A $25.00 gift card for ${world.merchant.merchant.name}`);
    expect(mail!.body.text).toContain(`sign up with this email address (${email})`);

    // They sign up through iOS (the email typed in another case): the gift is on their account at once.
    const signedUp = await signUpIos(email.toUpperCase());
    expect(signedUp.status, signedUp.text).toBe(200);
    const userId: number = signedUp.body.user.id;
    await expectClaimedBy(userId, email, merchantId, 2500);
    expect(await giftCardAtPos(world, signedUp.body.access_token.token)).toBe(2500);
    const [order] = await readItems([keys.giftCardValueOrder(toUnknown.body.gift_card_value_order.uuid)], { consistent: true });
    expect(order).toMatchObject({ state: 'claimed', recipient_user_id: userId });
    expect((await sentGifts(world)).map((sent) => sent.state)).toEqual(['delivered', 'delivered']);
    expect(await balance(buyerCard)).toBe(5000);

    // Now the email has an account: the next gift goes straight to it.
    expect((await gift(world, email, 1000)).status).toBe(200);
    expect(await balance(giftCardAccountKey(userId, merchantId))).toBe(3500);
    await expectBalancedLedger();
  });

  it(`holds at most ${MAX_HELD_GIFTS_PER_EMAIL} gifts for one email, and a sign-up claims them all at once, at every merchant`, async () => {
    const world = await orderWorld();
    const others = await Promise.all(Array.from({ length: MAX_HELD_GIFTS_PER_EMAIL - 1 }, () => merchantFixture(world.app.app_id)));
    const merchantIds = [world.merchant.merchant.merchant_id, ...others.map((other) => other.merchant.merchant_id)];
    const email = newEmail();
    for (const merchantId of merchantIds) expect((await gift(world, email, 1000, merchantId)).status).toBe(200);

    // One more, from another buyer: refused before any charge.
    const second = await orderWorld();
    const calls = gateway.since();
    const refused = await gift(second, email, 1000);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body).toEqual([
      { error: expect.objectContaining({ object: 'gift_card_value_order', property: 'recipient_email', code: 'too_many_held_gifts' }) },
    ]);
    expect(calls().charges).toEqual([]);

    const signedUp = await signUpAndroid(email);
    expect(signedUp.status, signedUp.text).toBe(200);
    for (const merchantId of merchantIds) {
      await expectClaimedBy(signedUp.body.user.id, email, merchantId, 1000);
    }
    await expectBalancedLedger();
  });

  it('is credited once when sign-ups with the email race each other (iOS and Android at once)', async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    const email = newEmail();
    for (const amount of [1000, 1500]) expect((await gift(world, email, amount)).status).toBe(200);
    expect(await balance(heldAccountKey(email, merchantId))).toBe(2500);

    const responses = await Promise.all([signUpIos(email), signUpAndroid(email), signUpIos(email), signUpAndroid(email)]);
    const statuses = responses.map((response) => response.status);
    expect(
      statuses.filter((status) => status === 200),
      responses.map((response) => response.text).join('\n'),
    ).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(3);
    const winner = responses.find((response) => response.status === 200)!;
    await expectClaimedBy(winner.body.user.id, email, merchantId, 2500);
    await expectBalancedLedger();
  });

  it('lands on the account once when the gift races the sign-up', async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    for (let round = 0; round < 4; round++) {
      const email = newEmail();
      const [ordered, signedUp] = await Promise.all([gift(world, email, 1000), signUpIos(email)]);
      expect(ordered.status, ordered.text).toBe(200);
      expect(signedUp.status, signedUp.text).toBe(200);
      await expectClaimedBy(signedUp.body.user.id, email, merchantId, 1000);
      const [order] = await readItems([keys.giftCardValueOrder(ordered.body.gift_card_value_order.uuid)], { consistent: true });
      expect(['delivered', 'claimed']).toContain(order!.state);
    }
    await expectBalancedLedger();
  });

  it("goes to an account that changes its email to the gift's", async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    const email = newEmail();
    expect((await gift(world, email, 2000)).status).toBe(200);
    const mover = await userFixture(world.app.app_id);
    const changed = await api.call('PUT', '/v15/users', { token: mover.token, body: { user: { email } } });
    expect(changed.status, changed.text).toBe(200);
    await expectClaimedBy(mover.user.user_id, email, merchantId, 2000);
    await expectBalancedLedger();
  });

  it(`goes back to the buyer's card when unclaimed after ${UNCLAIMED_GIFT_DAYS} days, and then no sign-up receives it`, async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    const email = newEmail();
    const ordered = await gift(world, email, 3000);
    expect(ordered.status).toBe(200);
    const uuid: string = ordered.body.gift_card_value_order.uuid;
    const day = 24 * 3600 * 1000;

    // Not yet due: it stays held.
    expect((await returnUnclaimedGifts(new Date(Date.now() + (UNCLAIMED_GIFT_DAYS - 1) * day))).returned).not.toContain(uuid);
    expect(await balance(heldAccountKey(email, merchantId))).toBe(3000);

    const calls = gateway.since();
    const run = await returnUnclaimedGifts(new Date(Date.now() + (UNCLAIMED_GIFT_DAYS + 1) * day));
    expect(run.returned).toContain(uuid);
    const [order] = await readItems([keys.giftCardValueOrder(uuid)], { consistent: true });
    expect(order).toMatchObject({ state: 'returned' });
    expect(await sentGifts(world)).toEqual([expect.objectContaining({ uuid, state: 'refunded', pending_until: null })]);
    expect(calls().refunds).toEqual([expect.objectContaining({ chargeId: order!.charge_id, amount: 3000 })]);
    expect(await balance(cardAccountKey(world.user.user.user_id, merchantId))).toBe(0);
    expect(await balance(heldAccountKey(email, merchantId))).toBe(0);
    const [buyerMail] = await mailTo(world.user.email, { timeoutMs: 15_000 });
    expect(buyerMail!.body.text).toContain(`sent to ${email} was not claimed`);

    // The operators' daily command, run again: nothing more goes back; a late sign-up gets nothing.
    const again = gateway.since();
    const command = await runAdmin(['gifts-return-unclaimed', '--as-of', new Date(Date.now() + (UNCLAIMED_GIFT_DAYS + 2) * day).toISOString()], api);
    expect(command.code, command.stderr).toBe(0);
    expect(JSON.parse(command.stdout)).toMatchObject({ returned: expect.not.arrayContaining([uuid]), refundPending: [] });
    expect(again().refunds).toEqual([]);
    expect(await balance(cardAccountKey(world.user.user.user_id, merchantId))).toBe(0);
    const late = await signUpIos(email);
    expect(late.status).toBe(200);
    expect(await balance(giftCardAccountKey(late.body.user.id, merchantId))).toBe(0);
    await expectBalancedLedger();
  });
});

describe("the buyer's list of sent gifts", () => {
  it('pages as every list does (issue 34.8): a Link on every page, the last one too, then 204; each gift once', async () => {
    const world = await orderWorld();
    const placed: string[] = [];
    for (let index = 0; index <= GIFT_CARD_ORDERS_PAGE_SIZE; index++) {
      // One buyer may order GIFT_CARD_ORDERS_PER_BUYER.limit gifts an hour: forgive the window as it fills.
      if (index % GIFT_CARD_ORDERS_PER_BUYER.limit === 0) await clearWindow(GIFT_CARD_ORDERS_PER_BUYER, String(world.user.user.user_id));
      const ordered = await gift(world, newEmail(), 1000);
      expect(ordered.status, ordered.text).toBe(200);
      placed.push(ordered.body.gift_card_value_order.uuid);
    }
    const walk = await sentGiftPages(world);
    expect(walk.pages.map((page) => page.body.length)).toEqual([GIFT_CARD_ORDERS_PAGE_SIZE, 1]);
    // Newest first to the second; gifts of one second follow their uuids, so compare the sets.
    expect(walk.items.map((entry) => entry.gift_card_value_order.uuid).sort()).toEqual([...placed].sort());
    await expectBalancedLedger();
  }, 180_000);
});

describe('no registration oracle: gift card orders per buyer are rate-limited', () => {
  it(`answers 429 with Retry-After after ${GIFT_CARD_ORDERS_PER_BUYER.limit} orders an hour, registered recipients or not, charging nothing`, async () => {
    const world = await orderWorld();
    const registered = await Promise.all(Array.from({ length: GIFT_CARD_ORDERS_PER_BUYER.limit / 2 }, () => userFixture(world.app.app_id)));
    const recipients = registered.flatMap((user) => [user.email, newEmail()]);
    const answers = [];
    for (const email of recipients) answers.push(await gift(world, email, 1000));
    // Every answer looks the same, whoever the recipient.
    for (const answer of answers) expect(observable(answer)).toEqual(observable(answers[0]!));

    const calls = gateway.since();
    const refused = await gift(world, newEmail(), 1000);
    expect(refused.status, refused.text).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toEqual([{ error: expect.objectContaining({ object: 'gift_card_value_order', code: 'rate_limited' }) }]);
    expect(calls().charges).toEqual([]);
    // Refused attempts count too: an invalid order is no way around the limit.
    expect((await gift(world, registered[0]!.email, 1000)).status).toBe(429);
    await expectBalancedLedger();
  });
});
