/**
 * The classic one-step order (sdk-operations P2), POST /v15/orders and /v14/orders, driven by the
 * reference's bodies and header forms: it charges through the settlement saga as if proposed and
 * completed at once.
 */
import { describe, expect, it } from 'vitest';
import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { useTestApi } from '../support/api.ts';
import { clientPayload as payload } from '../support/client-payloads.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, type OrderWorld, worldBalances, loadWorldGiftCard } from '../support/money.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

const csharp = payload('csharp_v15_orders__create.json');
const docs = payload('docs_v14_orders__create.json');
const csharpBody = (world: OrderWorld, fields: Record<string, unknown> = {}) => ({
  order: { ...csharp.request_body.order, location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data, ...fields },
});
const order = (world: OrderWorld, body: unknown, options: { version?: 'v14' | 'v15'; authorization?: string; headers?: Record<string, string> } = {}) =>
  api.call('POST', `/${options.version ?? 'v15'}/orders`, {
    authorization: options.authorization ?? `token merchant="${world.merchant.token}"`,
    body,
    headers: options.headers,
  });

describe('P2 POST /v15/orders and /v14/orders', () => {
  it('charges the C# SDK v3 body (QR in the body, tagged merchant token) and answers the four fields it reads', async () => {
    const world = await orderWorld();
    const response = await order(world, csharpBody(world));
    expect(response.status, response.text).toBe(csharp.response_status);
    for (const key of Object.keys(csharp.response_body.order)) expect(response.body.order).toHaveProperty(key);
    expect(response.body.order).toMatchObject({ uuid: expect.stringMatching(/^[0-9a-f]{32}$/), spend_amount: 997, tip_amount: 0, total_amount: 997 });
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 997 });
    // The customer sees it among their orders, with the POS's items.
    const detail = await api.call('GET', `/v15/orders/${response.body.order.uuid}`, { token: world.user.token });
    expect(detail.body.order).toMatchObject({
      spend_amount: 997,
      identifier_from_merchant: '001001',
      items: [expect.objectContaining({ item: expect.objectContaining({ name: 'Hashbrowns', charged_price_amount: 299 }) }), expect.anything()],
    });
  });

  it('takes the v14 docs body (untagged token, legacy charged_price/standard_price item keys)', async () => {
    const world = await orderWorld();
    const body = { order: { ...docs.request_body.order, location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data } };
    const response = await order(world, body, { version: 'v14', authorization: `token ${world.merchant.token}` });
    expect(response.status, response.text).toBe(200);
    expect(response.body.order).toMatchObject({ spend_amount: 997, tip_amount: 0, total_amount: 997 });
    const detail = await api.call('GET', `/v15/orders/${response.body.order.uuid}`, { token: world.user.token });
    expect(detail.body.order.items.map((entry: any) => [entry.item.charged_price_amount, entry.item.standard_price_amount])).toEqual([
      [599, 599],
      [398, 199],
    ]);
  });

  it('takes merchant and user tokens in one header, with or without the space (v15 docs, C#, Ruby gem)', async () => {
    const world = await orderWorld();
    const variant = docs.v15_markdown_variant;
    for (const separator of [', ', ',']) {
      const authorization = `token merchant="${world.merchant.token}"${separator}user="${world.user.token}"`;
      const response = await order(
        world,
        { order: { ...variant.request_body.order, location_id: world.location.location_id, spend_amount: 10 } },
        { authorization },
      );
      expect(response.status, response.text).toBe(200);
      expect(response.body.order).toMatchObject({ spend_amount: 10, total_amount: 10 });
    }
    // The Ruby gem's own request: items, identifier_from_merchant, location_id, spend_amount; a dropped empty item is null.
    const ruby = await order(
      world,
      {
        order: {
          items: [null, { item: { charged_price: 10, name: 'Coffee', description: null } }],
          identifier_from_merchant: null,
          location_id: world.location.location_id,
          spend_amount: 10,
        },
      },
      {
        authorization: `token merchant="${world.merchant.token}", user="${world.user.token}"`,
      },
    );
    expect(ruby.status, ruby.text).toBe(200);
    expect(ruby.body.order.spend_amount).toBe(10);
    expect(await worldBalances(world)).toMatchObject({ card: 30 });
  });

  it("takes the tip from the app's preference on the scanned code unless the request names one", async () => {
    const world = await orderWorld();
    // "03" + "00F" (15 %) + colour "A" + "LU"; "032JK" would be 1296 + 2000 cents.
    const percent = await order(
      world,
      csharpBody(world, { spend_amount: 1000, items: [], payment_token_data: `${world.user.user.payment_token_data}0300FALU` }),
    );
    expect(percent.body.order).toMatchObject({ spend_amount: 1000, tip_amount: 150, total_amount: 1150 });
    const cents = await order(world, csharpBody(world, { spend_amount: 1000, items: [], payment_token_data: `${world.user.user.payment_token_data}032JKALU` }));
    expect(cents.body.order).toMatchObject({ tip_amount: 2000, total_amount: 3000 });
    // A code can carry up to 1295 %: above 100 % it is refused as on completions (payment-codes.ts), charging nothing.
    const excessive = await order(
      world,
      csharpBody(world, { spend_amount: 1000, items: [], payment_token_data: `${world.user.user.payment_token_data}0302TALU` }),
    );
    expect(excessive.status).toBe(422);
    expect(excessive.body[0].error).toMatchObject({ object: 'order', property: 'payment_token_data', code: 'invalid_preferences' });
    expect(await worldBalances(world)).toMatchObject({ card: 1150 + 3000 });
  });

  it('pays as a completion does: applied discount, then gift card value, then the card; partial authorization approves what the card has', async () => {
    const world = await orderWorld({ credit: 200 });
    await loadWorldGiftCard(api, world, 1000);
    const response = await order(world, csharpBody(world, { spend_amount: 1500, applied_discount_amount: 200, items: [] }));
    expect(response.body.order).toMatchObject({ spend_amount: 1500, total_amount: 1500, gift_card_total_amount: 1000 });
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 300 });

    const limited = await orderWorld({ card: 'limited-funds' });
    const partial = await order(limited, csharpBody(limited, { spend_amount: 2000, partial_authorization_allowed: true, items: [] }));
    expect(partial.body.order).toMatchObject({ spend_amount: 1500, total_amount: 1500 });
    const refused = await order(limited, csharpBody(limited, { spend_amount: 2000, partial_authorization_allowed: false, items: [] }));
    expect(refused.status).toBe(422);
    expect(refused.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'insufficient_funds' });

    const declines = await orderWorld({ card: 'declines' });
    const declined = await order(declines, csharpBody(declines, { items: [] }));
    expect(declined.status).toBe(422);
    expect(declined.body).toEqual(docs.errors[1].response_body);
    expect(await worldBalances(declines)).toEqual({ giftCard: 0, credit: 0, card: 0 });
  });

  it('answers the documented errors', async () => {
    const world = await orderWorld();
    const unknownCode = await order(world, csharpBody(world, { payment_token_data: 'LU02000008ZS9OJFUBNEL6ZM030000LU' }));
    expect(unknownCode.status).toBe(422);
    expect(unknownCode.body).toEqual(docs.errors[0].response_body);
    const noCode = await order(world, csharpBody(world, { payment_token_data: null }));
    expect(noCode.status).toBe(422);
    expect(noCode.body).toEqual(docs.errors[2].response_body);
    const other = await merchantFixture(world.app.app_id);
    const otherLocation = await locationFixture(other.merchant.merchant_id);
    const missing = await order(world, csharpBody(world, { location_id: 987_654_321 }));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(docs.errors[3].response_body);
    // Another merchant's location: the contract's 401 for a merchant token not tied to the merchant (issue 34.3).
    const foreign = await order(world, csharpBody(world, { location_id: otherLocation.location_id }));
    expect(foreign.status).toBe(401);
    expect(foreign.body).toEqual([
      { error: { object: 'order', property: 'merchant_token', message: 'Not authorized to create orders for this merchant.', code: 'not_authorized' } },
    ]);
    // A user token without create_orders; an invalid user token (the Ruby gem's spec).
    const readOnly = await issueToken({
      subject: 'user',
      userId: world.user.user.user_id,
      appId: world.app.app_id,
      permissions: ['read_user_basic_info'],
      unlimited: false,
    });
    const noPermission = await order(
      world,
      { order: { location_id: world.location.location_id, spend_amount: 10 } },
      { authorization: `token merchant="${world.merchant.token}", user="${readOnly}"` },
    );
    expect(noPermission.status).toBe(401);
    expect(noPermission.body).toEqual(docs.v15_markdown_variant.errors[0].response_body);
    const invalid = await order(
      world,
      { order: { location_id: world.location.location_id, spend_amount: 10 } },
      { authorization: `token merchant="${world.merchant.token}", user="invalid"` },
    );
    expect(invalid.status).toBe(401);
    const tooLong = await order(world, csharpBody(world, { identifier_from_merchant: '12345678901' }));
    expect(tooLong.status).toBe(422);
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 0 });
  });

  it('leaves no source behind when refused, before the settlement (a discount over the spend) or after a declined charge', async () => {
    const world = await orderWorld({ card: 'declines' });
    const overDiscount = await order(world, csharpBody(world, { spend_amount: 100, applied_discount_amount: 200, items: [] }));
    expect(overDiscount.status).toBe(422);
    expect(overDiscount.body[0].error).toMatchObject({ property: 'applied_discount_amount', code: 'exceeds_spend' });
    const declined = await order(world, csharpBody(world, { items: [] }));
    expect(declined.status).toBe(422);
    const sources = await db().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: 'entity = :entity AND user_id = :user',
        ExpressionAttributeValues: { ':entity': 'ProposedOrder', ':user': world.user.user.user_id },
      }),
    );
    expect(sources.Items).toEqual([]);
  });

  it("gives the customer's lease back and leaves no source when the order stops after taking them (the merchant item is gone)", async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    // The source and the customer's lease are written beside the merchant's read (docs/data-model.md): a
    // merchant item missing by then is found after they were taken.
    await db().send(new DeleteCommand({ TableName: table(), Key: keys.merchant(merchantId) }));
    const refused = await order(world, csharpBody(world, { items: [] }));
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body[0].error).toMatchObject({ property: 'location_id', code: 'not_found' });
    const left = await db().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: '(entity = :source OR entity = :lease) AND user_id = :user',
        ExpressionAttributeValues: { ':source': 'ProposedOrder', ':lease': 'CustomerSettlement', ':user': world.user.user.user_id },
      }),
    );
    expect(left.Items).toEqual([]);
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 0 });
  });

  it('charges once for 10 concurrent requests with one Idempotency-Key, and replays the answer', async () => {
    const world = await orderWorld();
    const headers = { 'Idempotency-Key': `one-step-${world.user.user.user_id}` };
    const responses = await Promise.all(Array.from({ length: 10 }, () => order(world, csharpBody(world, { spend_amount: 500, items: [] }), { headers })));
    const succeeded = responses.filter((response) => response.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    for (const response of responses.filter((candidate) => candidate.status !== 200)) {
      expect(response.status).toBe(409);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(new Set(succeeded.map((response) => response.body.order.uuid)).size).toBe(1);
    const replay = await order(world, csharpBody(world, { spend_amount: 500, items: [] }), { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(succeeded[0]!.body);
    expect(await worldBalances(world)).toMatchObject({ card: 500 });
  });

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
