/**
 * Merchant-funded credit grants (sdk-operations P9) and progress adjustments (P10), driven by the
 * reference's bodies: credit through the ledger, expiry as a ledger movement, progress by the order rules.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { clientPayload as payload } from '../support/client-payloads.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { complete, orderWorld, propose, type OrderWorld } from '../support/money.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { db, table } from '#shared/db/client.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { expiryEntryId } from '#shared/domain/money/credit.ts';
import { isoSeconds } from '#shared/time.ts';

const api = useTestApi();

const grantsReference = payload('docs_v15_merchant_funded_credits__create.json');
const creditOf = async (world: OrderWorld) => (await getBalance(creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;
const grant = (world: OrderWorld, fields: Record<string, unknown> = {}, options: { authorization?: string; headers?: Record<string, string> } = {}) =>
  api.call('POST', '/v15/merchant_funded_credits', {
    authorization: options.authorization ?? `token merchant="${world.merchant.token}"`,
    headers: options.headers,
    body: {
      merchant_funded_credit: {
        ...grantsReference.request_body.merchant_funded_credit,
        email: world.user.email,
        merchant_id: world.merchant.merchant.merchant_id,
        ...fields,
      },
    },
  });
const offered = async (world: OrderWorld) => (await propose(api, world, { spend_amount: 100_000 })).body.proposed_order.discount_amount as number;
/** Time passing for the user's open grants at the merchant: each one's stored expiry moves a second into the past. */
const passExpiry = async (world: OrderWorld) => {
  const key = keys.creditGrants(world.user.user.user_id, world.merchant.merchant.merchant_id);
  const [item] = await readItems([key], { consistent: true });
  const past = isoSeconds(new Date(Date.now() - 1000));
  const grants = (item!.grants as { expires_at: string }[]).map((grant) => ({ ...grant, expires_at: past }));
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: key,
      UpdateExpression: 'SET grants = :grants, next_expiry_at = :past',
      ExpressionAttributeValues: { ':grants': grants, ':past': past },
    }),
  );
};
const until = async (condition: () => Promise<boolean>) => {
  for (let attempt = 0; attempt < 100 && !(await condition()); attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
};

describe('P9 POST /v15/merchant_funded_credits', () => {
  it("gives credit by email (the C# body's six keys, the Ruby gem's two) that the next proposed order offers", async () => {
    const world = await orderWorld();
    const response = await grant(world, { value_amount: 175 });
    expect(response.status, response.text).toBe(grantsReference.response_status);
    expect(response.text).toBe('');
    expect(await offered(world)).toBe(175);
    const ruby = await api.call('POST', '/v15/merchant_funded_credits', {
      authorization: `token merchant="${world.merchant.token}"`,
      body: { merchant_funded_credit: { ...grantsReference.request_body_older_revision.merchant_funded_credit, email: world.user.email } },
    });
    expect(ruby.status).toBe(204);
    expect(await creditOf(world)).toBe(275);
  });

  it('answers clear errors and gives nothing', async () => {
    const world = await orderWorld();
    const unknown = await grant(world, { email: 'nobody-here@example.com' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual([
      { error: { object: 'merchant_funded_credit', property: 'email', message: 'Email does not match any User', code: 'not_found' } },
    ]);
    const other = await merchantFixture(world.app.app_id);
    expect((await grant(world, { merchant_id: other.merchant.merchant_id })).status).toBe(401);
    for (const fields of [{ global: true }, { value_amount: 0 }, { value_amount: 50_001 }, { duration_in_seconds: 0 }]) {
      const refused = await grant(world, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(422);
    }
    const powerless = await merchantFixture(world.app.app_id, { permissions: ['manage_merchant_orders'] });
    expect((await grant(world, {}, { authorization: `token merchant="${powerless.token}"` })).status).toBe(401);
    expect(await creditOf(world)).toBe(0);
  });

  it('honours duration_in_seconds: expired credit is not offered or applied, and its expiry is a ledger movement', async () => {
    const world = await orderWorld({ credit: 50 });
    expect((await grant(world, { value_amount: 300, duration_in_seconds: 3600 })).status).toBe(204);
    const [granted] = await readItems([keys.creditGrants(world.user.user.user_id, world.merchant.merchant.merchant_id)], { consistent: true });
    const expiresAt = Date.parse((granted!.grants as { expires_at: string }[])[0]!.expires_at);
    expect(expiresAt - Date.now()).toBeGreaterThan(3590_000); // duration_in_seconds sets the expiry
    // Spent in part while it lasts (spending uses the expiring credit first).
    const proposed = await propose(api, world, { spend_amount: 1000 });
    expect(proposed.body.proposed_order.discount_amount).toBe(350);
    expect((await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: 1000, applied_discount_amount: 100 })).status).toBe(200);
    const location = world.location.location_id;
    const qr = world.user.user.payment_token_data;
    const shown = async () =>
      (await api.call('GET', `/v15/locations/${location}/merchant_funded_credit?payment_token_data=${qr}`, { token: world.merchant.token })).body
        .merchant_funded_credit.discount_amount;
    const waiting = await propose(api, world, { spend_amount: 1000 });
    expect(await shown()).toBe(250);
    // The hour passes: the stored expiry moves into the past (a real wait made this test depend on the
    // machine's speed: a short grant had to outlive the propose and complete before it).
    await passExpiry(world);
    await until(async () => (await shown()) === 50);
    // The 200 left of the grant left the account; the permanent 50 stayed.
    expect(await shown()).toBe(50);
    expect(await creditOf(world)).toBe(50);
    const [grants] = await readItems([keys.creditGrants(world.user.user.user_id, world.merchant.merchant.merchant_id)], { consistent: true });
    expect(grants?.grants).toEqual([]);
    // A completion applying more than what is left is refused, even for an order proposed before the expiry.
    const tooMuch = await complete(api, world, waiting.body.proposed_order.uuid, { spend_amount: 1000, applied_discount_amount: 60 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body[0].error).toMatchObject({ property: 'applied_discount_amount', code: 'exceeds_available' });
    const entries = await (
      await import('#shared/db/reads.ts')
    ).queryAll({
      TableName: api.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.ledgerEntryPrefix(creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id)).pk },
    });
    const expiry = entries.filter((entry) => entry.kind === 'credit_expired');
    expect(expiry).toHaveLength(1);
    expect(expiry[0]).toMatchObject({ amount: -200, entry_id: expect.stringMatching(/^mfcredit:[0-9a-f]{32}:expired$/) });
    expect(expiryEntryId(expiry[0]!.reference.grant_uuid)).toBe(expiry[0]!.entry_id);
  });

  it('a grant racing completions that spend it is applied once at most', async () => {
    const world = await orderWorld();
    const proposals = await Promise.all(Array.from({ length: 8 }, () => propose(api, world, { spend_amount: 500 })));
    const [granted, ...completions] = await Promise.all([
      grant(world, { value_amount: 100 }),
      ...proposals.map((proposed) => complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: 500, applied_discount_amount: 100 })),
    ]);
    expect(granted.status).toBe(204);
    const applied = completions.filter((response) => response.status === 200);
    for (const response of completions.filter((candidate) => candidate.status !== 200)) {
      expect([409, 422]).toContain(response.status);
    }
    expect(applied.length).toBeLessThanOrEqual(1);
    expect(await creditOf(world)).toBe(100 - 100 * applied.length);
  });

  it('gives once per Idempotency-Key', async () => {
    const world = await orderWorld();
    const headers = { 'Idempotency-Key': `grant-${world.user.user.user_id}` };
    const responses = await Promise.all(Array.from({ length: 10 }, () => grant(world, { value_amount: 120 }, { headers })));
    for (const response of responses) expect([204, 409]).toContain(response.status);
    expect((await grant(world, { value_amount: 120 }, { headers })).headers.get('idempotent-replayed')).toBe('true');
    expect(await creditOf(world)).toBe(120);
  });
});

describe('P10 POST /v15/progress_adjustments', () => {
  const reference = payload('docs_v15_progress_adjustments__create.json');
  const adjust = (world: OrderWorld, fields: Record<string, unknown>, token = world.merchant.token) =>
    api.call('POST', '/v15/progress_adjustments', {
      authorization: `token merchant="${token}"`,
      body: { progress_adjustment: { ...reference.request_body.progress_adjustment, user_id: world.user.user.user_id, ...fields } },
    });
  const view = async (world: OrderWorld, campaignId: number, type: string) =>
    (await api.call('GET', `/v15/campaigns/${campaignId}/${type}`, { token: world.user.token })).body.campaign;

  it('adds progress by the order rules (the docs body, by user id or email): reaching the goal earns the reward as credit', async () => {
    const world = await orderWorld();
    const visits = await campaignFixture(world.merchant.merchant.merchant_id, 'visit');
    const response = await adjust(world, { campaign_id: visits.campaign_id });
    expect(response.status, response.text).toBe(reference.response_status);
    expect((await view(world, visits.campaign_id, 'visit_based_loyalty_v1')).progress_visit_count).toBe(1);
    // Two more visits reach the requirement of 3: the $4 reward is credit the next order offers.
    expect((await adjust(world, { campaign_id: visits.campaign_id, adjustment: 2, user_id: null, email: world.user.email })).status).toBe(204);
    expect((await view(world, visits.campaign_id, 'visit_based_loyalty_v1')).progress_visit_count).toBe(0);
    expect(await creditOf(world)).toBe(400);
    expect(await offered(world)).toBe(400);
    // A negative adjustment lowers progress, never below zero, and takes back no reward.
    const spend = await campaignFixture(world.merchant.merchant.merchant_id, 'spend');
    expect((await adjust(world, { campaign_id: spend.campaign_id, adjustment: 1200 })).status).toBe(204);
    expect((await adjust(world, { campaign_id: spend.campaign_id, adjustment: -5000 })).status).toBe(204);
    expect((await view(world, spend.campaign_id, 'spend_based_loyalty_v1')).progress_amount).toBe(0);
    expect(await creditOf(world)).toBe(400);
  });

  it("answers 422 for an unknown email and 401 for another merchant's campaign, changing nothing", async () => {
    const world = await orderWorld();
    const campaign = await campaignFixture(world.merchant.merchant.merchant_id, 'spend');
    const unknown = await adjust(world, { campaign_id: campaign.campaign_id, user_id: null, email: 'nobody-here@example.com' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual([
      { error: { object: 'progress_adjustment', property: 'email', message: 'Email does not match any User', code: 'not_found' } },
    ]);
    const other = await merchantFixture(world.app.app_id);
    expect((await adjust(world, { campaign_id: campaign.campaign_id }, other.token)).status).toBe(401);
    const value = await campaignFixture(world.merchant.merchant.merchant_id, 'value');
    expect((await adjust(world, { campaign_id: value.campaign_id })).status).toBe(422);
    expect((await view(world, campaign.campaign_id, 'spend_based_loyalty_v1')).progress_amount).toBe(0);
  });

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
