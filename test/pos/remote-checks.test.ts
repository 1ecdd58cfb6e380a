/**
 * Remote checks (reference P16-P19, docs/pos.md "Remote checks"): the POS publishes a check with the C# SDK's
 * bodies, shows its QR code, the customer's app claims it, the POS reads the pending order and finalises it
 * through the settlement saga: charged once, whatever the concurrency, with the ledger balanced.
 */
import QRCode from 'qrcode';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { publishCheck, updateCheck, type CheckItem } from '#shared/domain/orders/checks.ts';
import { checkBody as checkBodySchema } from '#shared/schemas/pos.ts';
import { auditLedger, cardAccountKey, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { useTestApi } from '../support/api.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';

const api = useTestApi();

const publishPayload = clientPayload('csharp_v15_checks__create_update.json');
const showPayload = clientPayload('csharp_v15_checks_uuid__show.json');
const finalisePayload = clientPayload('csharp_v15_checks_uuid_orders__create.json');
const [sdkAllFields, defaultsOnly] = publishPayload.variants.map((variant: any) => variant.request_body);
/** The SDK's "all fields" body, as it is: 10,000 units of its quinoa (accepted since issue 34.4, checked below). */
const allFields = sdkAllFields;
const [fullFinalise] = finalisePayload.variants.map((variant: any) => variant.request_body);

/** The C# SDK's check body at the world's location (the fixture's location id is theirs). */
function checkBody(world: OrderWorld, body: any = allFields) {
  return { check: { ...body.check, location_id: world.location.location_id } };
}

async function publish(world: OrderWorld, body: any = allFields) {
  const response = await api.call('PUT', '/v15/checks', { authorization: `token ${world.merchant.token}`, body: checkBody(world, body) });
  expect(response.status, response.text).toBe(200);
  return response.body.check as { uuid: string; locator: string; qr_code_character_art: string };
}

function claim(world: OrderWorld, uuid: string, body: unknown = { order: { tip_amount: 100 } }, token = world.user.token) {
  return api.call('POST', `/v15/checks/${uuid}/orders`, { token, body });
}

function finalise(world: OrderWorld, uuid: string, body: unknown = fullFinalise, headers?: Record<string, string>) {
  return api.call('POST', `/v15/checks/${uuid}/orders`, { authorization: `token ${world.merchant.token}`, body, headers });
}

/** The art's rows as module rows (two per text row), dark = true. */
function modulesOf(art: string): boolean[][] {
  const rows: boolean[][] = [];
  for (const line of art.split(',')) {
    const chars = [...line];
    rows.push(chars.map((char) => char === '\u2588' || char === '\u2580'));
    rows.push(chars.map((char) => char === '\u2588' || char === '\u2584'));
  }
  return rows;
}

describe('P16-P17 PUT /v15/checks and /v15/checks/:uuid', () => {
  it("publishes the C# SDK's bodies and answers locator, uuid and the QR code art it splits on ','", async () => {
    const world = await orderWorld();
    for (const body of [allFields, defaultsOnly]) {
      const check = await publish(world, body);
      expect(check.locator).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
      expect(check.uuid).toMatch(/^[0-9a-f]{32}$/);
      const rows = check.qr_code_character_art.split(',');
      expect(new Set(rows.map((row) => [...row].length)).size).toBe(1);
      expect(check.qr_code_character_art).toMatch(/^[\u00a0\u2580\u2584\u2588,]+$/);
      // The code holds `CHECK:<UUID>`: the same modules as a QR code of that text, with a one-module quiet zone.
      const { modules } = QRCode.create(`CHECK:${check.uuid.toUpperCase()}`, { errorCorrectionLevel: 'M' });
      const size = modules.size;
      const drawn = modulesOf(check.qr_code_character_art);
      expect([...rows[0]!].length).toBe(size + 2);
      const expected = Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, column) => modules.get(row, column) === 1));
      expect(drawn.slice(1, size + 1).map((row) => row.slice(1, size + 1))).toEqual(expected);
      expect(drawn[0]!.every((dark) => !dark)).toBe(true);
    }
  });

  it("accepts the SDK's 10,000-unit body (issue 34.4), and the order earns item loyalty only for the cents charged", async () => {
    // The SDK's finalisation applies 200 of credit.
    const world = await orderWorld({ credit: 200 });
    const merchantId = world.merchant.merchant.merchant_id;
    // Every 5 quinoas earn 300: counted by quantity alone, 10,000 would be 2,000 rewards ($6,000 of credit).
    const quinoa = await campaignFixture(merchantId, 'item', { item_rules: [{ field: 'sku', value: 'UNKNOWN' }] });
    const check = await publish(world, sdkAllFields);
    const shown = await api.call('GET', `/v15/checks/${check.uuid}`, { token: world.merchant.token });
    expect(shown.body.check.items[1].item).toMatchObject({ name: 'Quinoa', quantity: 10_000, charged_price_amount: 3 });
    expect((await claim(world, check.uuid)).status).toBe(200);
    const finalised = await finalise(world, check.uuid);
    expect(finalised.status, finalised.text).toBe(200);
    // The line was charged 3 cents: 3 units of progress, no reward; the 200 applied is spent, nothing earned.
    const progress = await api.call('GET', `/v15/campaigns/${quinoa.campaign_id}/item_based_loyalty_v1`, { token: world.user.token });
    expect(progress.body.campaign.progress_item_count).toBe(3);
    expect((await getBalance(creditAccountKey(world.user.user.user_id, merchantId))).balance).toBe(0);
  });

  it('updates an open check in place (same uuid, locator and QR code) and the POS reads the new terms', async () => {
    const world = await orderWorld();
    const check = await publish(world);
    const updated = await api.call('PUT', `/v15/checks/${check.uuid}`, { token: world.merchant.token, body: checkBody(world, defaultsOnly) });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.check).toEqual(check);
    const shown = await api.call('GET', `/v15/checks/${check.uuid}`, { token: world.merchant.token });
    expect(shown.body.check).toMatchObject({ state: 'open', spend_amount: 2132, tax_amount: 59, exemption_amount: 3, items: [] });
    expect(shown.body.check).not.toHaveProperty('pending_order');
  });

  it("refuses another merchant's location (401, issue 34.3), an unknown one (422), a location change (422), another merchant's check (401), an unknown check (404)", async () => {
    const world = await orderWorld();
    const other = await merchantFixture(world.app.app_id);
    const otherLocation = await locationFixture(other.merchant.merchant_id);
    const foreign = await api.call('PUT', '/v15/checks', {
      token: world.merchant.token,
      body: { check: { ...allFields.check, location_id: otherLocation.location_id } },
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body).toEqual([
      { error: { object: 'order', property: 'merchant_token', message: 'Not authorized to create orders for this merchant.', code: 'not_authorized' } },
    ]);
    const nowhere = await api.call('PUT', '/v15/checks', { token: world.merchant.token, body: { check: { ...allFields.check, location_id: 987_654_321 } } });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body[0].error).toMatchObject({ object: 'check', property: 'location_id', code: 'not_found' });
    const check = await publish(world);
    const moved = await api.call('PUT', `/v15/checks/${check.uuid}`, {
      token: world.merchant.token,
      body: { check: { ...allFields.check, location_id: otherLocation.location_id } },
    });
    expect(moved.status).toBe(422);
    expect(moved.body[0].error).toMatchObject({ object: 'check', property: 'location_id', code: 'immutable' });
    const notTheirs = await api.call('PUT', `/v15/checks/${check.uuid}`, {
      token: other.token,
      body: { check: { ...allFields.check, location_id: otherLocation.location_id } },
    });
    expect(notTheirs.status).toBe(401);
    const unknown = await api.call('PUT', `/v15/checks/${randomUUID().replace(/-/g, '')}`, { token: world.merchant.token, body: checkBody(world) });
    expect(unknown.status).toBe(404);
    const tooLong = await api.call('PUT', '/v15/checks', {
      token: world.merchant.token,
      body: checkBody(world, { check: { ...allFields.check, identifier_from_merchant: 'x'.repeat(11) } }),
    });
    expect(tooLong.status).toBe(422);
  });
});

describe('P16 the QR code drawn while the check is written', () => {
  /** Fails the check's PutItem (a refusal no retry helps, so the answer is the write's error), every other call passes. */
  function failCheckWrites() {
    const client = db();
    const send = client.send.bind(client) as (...args: unknown[]) => Promise<unknown>;
    return vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      if (command instanceof PutCommand && command.input.Item?.entity === 'Check') {
        return Promise.reject(Object.assign(new Error('refused by the test'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } }));
      }
      return send(command, ...rest);
    }) as never);
  }

  async function stored(uuid: string) {
    return (await db().send(new GetCommand({ TableName: table(), Key: keys.check(uuid), ConsistentRead: true }))).Item;
  }

  it('a failed write answers 500 as before the overlap, with no QR code, and publishes nothing', async () => {
    const world = await orderWorld();
    const spy = failCheckWrites();
    try {
      const response = await api.call('PUT', '/v15/checks', { token: world.merchant.token, body: checkBody(world) });
      expect(response.status).toBe(500);
      expect(response.text).not.toContain('qr_code_character_art');
    } finally {
      spy.mockRestore();
    }
    // Published again, the same body works: nothing was left behind by the failed one.
    await publish(world);
  });

  it("returns the answer only once the write has landed; the write's error wins over the answer's, else the answer's error", async () => {
    const world = await orderWorld();
    const request = checkBodySchema.parse(checkBody(world)).check;
    const merchantId = world.merchant.merchant.merchant_id;

    let seen: CheckItem | undefined;
    const answer = await publishCheck(merchantId, request, (check) => {
      seen = check;
      return check.uuid;
    });
    expect(answer).toBe(seen!.uuid);
    expect(await stored(answer)).toMatchObject({ uuid: answer, state: 'open', locator: seen!.locator });

    // The answer fails, the write lands: the answer's error (as when the code was drawn after the write).
    let drawn: string | undefined;
    await expect(
      publishCheck(merchantId, request, (check) => {
        drawn = check.uuid;
        throw new Error('drawing failed');
      }),
    ).rejects.toThrow('drawing failed');
    expect(await stored(drawn!)).toMatchObject({ uuid: drawn, state: 'open' });

    // Both fail: the write's error, as before (the code was never drawn then).
    const spy = failCheckWrites();
    try {
      await expect(
        publishCheck(merchantId, request, () => {
          throw new Error('drawing failed');
        }),
      ).rejects.toThrow('refused by the test');
      await expect(publishCheck(merchantId, request, (check) => check.uuid)).rejects.toThrow('refused by the test');
    } finally {
      spy.mockRestore();
    }
  });
  it("updates draw the code from the uuid while the UpdateItem is in flight; a refused update's error wins, else the drawing's", async () => {
    const world = await orderWorld();
    const request = checkBodySchema.parse(checkBody(world)).check;
    const merchantId = world.merchant.merchant.merchant_id;
    const published = await publish(world);

    const drawnFor: string[] = [];
    const [check, drawn] = await updateCheck(merchantId, published.uuid, request, (uuid) => {
      drawnFor.push(uuid);
      return `code of ${uuid}`;
    });
    expect(drawnFor).toEqual([published.uuid]);
    expect(drawn).toBe(`code of ${published.uuid}`);
    expect(check).toMatchObject({ uuid: published.uuid, locator: published.locator, state: 'open' });

    // The drawing fails, the update lands: the drawing's error.
    await expect(
      updateCheck(merchantId, published.uuid, request, () => {
        throw new Error('drawing failed');
      }),
    ).rejects.toThrow('drawing failed');
    // The update is refused (no such check): its 404, as before, whatever the drawing did.
    const unknown = randomUUID().replace(/-/g, '');
    await expect(
      updateCheck(merchantId, unknown, request, () => {
        throw new Error('drawing failed');
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(updateCheck(merchantId, unknown, request, (uuid) => uuid)).rejects.toMatchObject({ status: 404 });
  });
});

describe('P18-P19 claim, pending order and finalisation', () => {
  it('the customer claims, the POS reads the pending order (C# shape) and finalises it once through the settlement saga', async () => {
    const world = await orderWorld({ credit: 300 });
    const check = await publish(world);
    const before = await api.call('GET', `/v15/checks/${check.uuid}`, { token: world.merchant.token });
    // Unclaimed: the key is left out (issue 34.12; the C# SDK throws on `"pending_order": null`).
    expect(before.status).toBe(200);
    expect(before.body.check).not.toHaveProperty('pending_order');
    expect(before.text).not.toContain('pending_order');

    const claimed = await claim(world, check.uuid.toUpperCase());
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body.check).toMatchObject({ uuid: check.uuid, state: 'claimed', spend_amount: 4567, merchant_name: world.merchant.merchant.name });
    expect(claimed.body.check.items.map((entry: any) => entry.item.name)).toEqual(['Beets by Dre', 'Quinoa', "Slammin' Salmon"]);
    // Claiming again is the same pending order (the app's retry).
    const again = await claim(world, check.uuid);
    expect(again.body.check.pending_order).toEqual(claimed.body.check.pending_order);

    const pending = await api.call('GET', `/v15/checks/${check.uuid}`, { token: world.merchant.token });
    expect(pending.status).toBe(200);
    expectShapeOf(pending.body, showPayload.variants[0].response_body);
    // The customer's credit within the check's spend less exemption: what the POS may apply.
    expect(pending.body.check.pending_order).toEqual({ uuid: expect.stringMatching(/^[0-9a-f]{32}$/), discount_amount: 300, tip_amount: 100 });

    const finalised = await finalise(world, check.uuid);
    expect(finalised.status, finalised.text).toBe(200);
    expectShapeOf(finalised.body, finalisePayload.responses[0].response_body);
    expect(finalised.body.order).toMatchObject({ spend_amount: 987, tip_amount: 100, total_amount: 1087, gift_card_total_amount: 0, gift_card_tip_amount: 0 });
    const userId = world.user.user.user_id;
    const merchantId = world.merchant.merchant.merchant_id;
    expect((await getBalance(cardAccountKey(userId, merchantId))).balance).toBe(987 - 200 + 100);
    expect((await getBalance(creditAccountKey(userId, merchantId))).balance).toBe(100);

    // The order is the customer's like any in-store order, with the check's items and POS fields.
    const order = await api.call('GET', `/v15/orders/${finalised.body.order.uuid}`, { token: world.user.token });
    expect(order.body.order).toMatchObject({ identifier_from_merchant: '!dent!f!er', credit_applied_amount: 200, tax_amount: 50 });
    expect(order.body.order.items).toHaveLength(3);
    const paid = await api.call('GET', `/v15/checks/${check.uuid}`, { token: world.merchant.token });
    expect(paid.body.check).toMatchObject({ state: 'completed', completed_order_uuid: finalised.body.order.uuid, pending_order: { discount_amount: null } });

    // Paid: no second charge, no new terms. The same finalisation again (a POS whose answer was lost) answers
    // the order (issue 34.2); other terms are refused.
    const twice = await finalise(world, check.uuid);
    expect(twice.status, twice.text).toBe(200);
    expect(twice.text).toBe(finalised.text);
    const otherTerms = await finalise(world, check.uuid, { order: { ...fullFinalise.order, spend_amount: 1 } });
    expect(otherTerms.status, otherTerms.text).toBe(422);
    expect(otherTerms.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'differs_from_completed' });
    const update = await api.call('PUT', `/v15/checks/${check.uuid}`, { token: world.merchant.token, body: checkBody(world) });
    expect(update.status).toBe(422);
    expect(update.body[0].error).toMatchObject({ object: 'check', property: 'base', code: 'already_completed' });
    expect((await getBalance(cardAccountKey(userId, merchantId))).balance).toBe(887);
  });

  it("answers the C# SDK's finalisation bodies (null discount, no tax) with the completed order's fields", async () => {
    for (const variant of finalisePayload.variants.slice(1)) {
      const world = await orderWorld({ credit: 50 });
      const check = await publish(world, defaultsOnly);
      expect((await claim(world, check.uuid, {})).status).toBe(200);
      const response = await finalise(world, check.uuid, variant.request_body);
      expect(response.status, response.text).toBe(200);
      expectShapeOf(response.body, finalisePayload.responses[2].response_body);
      const applied = variant.request_body.order.applied_discount_amount ?? 0;
      expect(response.body.order).toMatchObject({ spend_amount: 8765, tip_amount: 0, total_amount: 8765 });
      expect((await getBalance(cardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance).toBe(8765 - applied);
    }
  });

  it('follows the completed-order rules: gift card value first, partial authorization (rules 2-4), a refusal changes nothing', async () => {
    const world = await orderWorld({ card: 'none' });
    const load = await api.call('POST', `/v15/merchants/${world.merchant.merchant.merchant_id}/gift_card_value_additions`, {
      token: world.merchant.token,
      body: { gift_card_value_addition: { payment_token_data: world.user.user.payment_token_data, value_amount: 1000 } },
    });
    expect(load.status, load.text).toBe(200);
    // partial_authorization_allowed: false and no card for the rest: 422, the check stays claimed.
    const strict = await publish(world, { check: { ...defaultsOnly.check, partial_authorization_allowed: false } });
    expect((await claim(world, strict.uuid, {})).status).toBe(200);
    const declined = await finalise(world, strict.uuid, { order: { applied_discount_amount: null, tax_amount: 0, spend_amount: 2000 } });
    expect(declined.status).toBe(422);
    expect(declined.body[0].error).toMatchObject({ object: 'order', code: 'no_payment_method' });
    expect((await api.call('GET', `/v15/checks/${strict.uuid}`, { token: world.merchant.token })).body.check.state).toBe('claimed');
    // The SDK's default (partial allowed): the gift card pays what it can; without a card that is all (rule 4).
    const partial = await publish(world, defaultsOnly);
    expect((await claim(world, partial.uuid, {})).status).toBe(200);
    const approved = await finalise(world, partial.uuid, { order: { applied_discount_amount: null, tax_amount: 0, spend_amount: 2000 } });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.order).toMatchObject({ gift_card_total_amount: 1000, spend_amount: 1000 });
  });

  it('refuses an unclaimed check, a missing spend, another merchant (401), an app token and missing permissions (401)', async () => {
    const world = await orderWorld();
    const check = await publish(world);
    const unclaimed = await finalise(world, check.uuid);
    expect(unclaimed.status).toBe(422);
    expect(unclaimed.body[0].error).toMatchObject({ object: 'check', code: 'not_claimed' });
    expect((await claim(world, check.uuid)).status).toBe(200);
    const noSpend = await finalise(world, check.uuid, { order: { applied_discount_amount: null, tax_amount: 0 } });
    expect(noSpend.status).toBe(422);
    expect(noSpend.body[0].error).toMatchObject({ object: 'order', property: 'spend_amount' });
    const other = await merchantFixture(world.app.app_id);
    expect((await api.call('POST', `/v15/checks/${check.uuid}/orders`, { token: other.token, body: fullFinalise })).status).toBe(401);
    expect((await api.call('GET', `/v15/checks/${check.uuid}`, { token: other.token })).status).toBe(401);
    const appToken = await issueToken({ subject: 'app', appId: world.app.app_id });
    expect((await api.call('POST', `/v15/checks/${check.uuid}/orders`, { token: appToken, body: {} })).status).toBe(401);
    const powerlessMerchant = await issueToken({
      subject: 'merchant',
      merchantId: world.merchant.merchant.merchant_id,
      appId: world.app.app_id,
      permissions: ['manage_gift_cards'],
    });
    expect((await api.call('POST', `/v15/checks/${check.uuid}/orders`, { token: powerlessMerchant, body: fullFinalise })).status).toBe(401);
    const powerlessUser = await issueToken({
      subject: 'user',
      userId: world.user.user.user_id,
      appId: world.app.app_id,
      permissions: ['read_user_orders'],
      unlimited: false,
    });
    expect((await api.call('POST', `/v15/checks/${check.uuid}/orders`, { token: powerlessUser, body: {} })).status).toBe(401);
    expect((await api.call('GET', `/v15/checks/${randomUUID().replace(/-/g, '')}`, { token: world.merchant.token })).status).toBe(404);
  });

  it('another user finds a claimed check not found (404); an app that does not serve the merchant cannot claim', async () => {
    const world = await orderWorld();
    const check = await publish(world);
    expect((await claim(world, check.uuid)).status).toBe(200);
    const stranger = await userFixture(world.app.app_id);
    const theirs = await claim(world, check.uuid, {}, stranger.token);
    expect(theirs.status).toBe(404);
    expect(theirs.text).toBe('');
    const open = await publish(world);
    const { app } = await appFixture({ global: false, merchantIds: [] });
    const narrowUser = await userFixture(app.app_id);
    expect((await claim(world, open.uuid, {}, narrowUser.token)).status).toBe(404);
  });
});

describe('exactly once under concurrency', () => {
  it('10 customers claim one check at once: one wins, the others find it not found', async () => {
    const world = await orderWorld();
    const check = await publish(world);
    const users = await Promise.all(Array.from({ length: 10 }, () => userFixture(world.app.app_id)));
    const responses = await Promise.all(users.map((user) => claim(world, check.uuid, {}, user.token)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 404)).toHaveLength(9);
  });

  it('10 concurrent finalisations charge once; 10 more with one Idempotency-Key answer the same order', async () => {
    const world = await orderWorld({ credit: 200 });
    const check = await publish(world);
    expect((await claim(world, check.uuid)).status).toBe(200);
    const responses = await Promise.all(Array.from({ length: 10 }, () => finalise(world, check.uuid)));
    // The same finalisation at once: every one that waited the first out answers its order (issue 34.2);
    // one that ran out of waiting is a 409 to retry.
    const won = responses.filter((response) => response.status === 200);
    expect(new Set(won.map((response) => response.text)).size).toBe(1);
    for (const response of responses.filter((candidate) => candidate.status !== 200)) {
      expect(response.status).toBe(409);
      expect(response.body[0].error.code).toBe('in_progress');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const card = cardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id);
    expect((await getBalance(card)).balance).toBe(987 - 200 + 100);

    const keyed = await orderWorld({ credit: 200 });
    const keyedCheck = await publish(keyed);
    expect((await claim(keyed, keyedCheck.uuid)).status).toBe(200);
    const key = { 'Idempotency-Key': randomUUID() };
    const keyedResponses = await Promise.all(Array.from({ length: 10 }, () => finalise(keyed, keyedCheck.uuid, fullFinalise, key)));
    const uuids = new Set(keyedResponses.filter((response) => response.status === 200).map((response) => response.body.order.uuid));
    expect(uuids.size).toBe(1);
    for (const response of keyedResponses.filter((candidate) => candidate.status !== 200)) expect(response.status).toBe(409);
    const replay = await finalise(keyed, keyedCheck.uuid, fullFinalise, key);
    expect(replay.status).toBe(200);
    expect(replay.body.order.uuid).toBe([...uuids][0]);
    expect((await getBalance(cardAccountKey(keyed.user.user.user_id, keyed.merchant.merchant.merchant_id))).balance).toBe(887);
  });

  it('leaves a ledger that matches every balance (audit 0)', async () => {
    const report = await auditLedger();
    expect(report.entries).toBeGreaterThan(0);
    expect(report.mismatches).toEqual([]);
  });
});
