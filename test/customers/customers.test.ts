/**
 * A merchant's customers through the management API (issue 38; docs/merchant-api.md "Customers"): found by exact
 * email, their standing at THIS merchant only (another merchant's credit, gift card value and progress never show),
 * a user with nothing here answering as an unknown email, lookups rate-limited, every role on every route, and the
 * credit grant and unlocking through the POS routes' own domain functions: approver, audit entry, exactly once.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_LOOKUPS_PER_STAFF } from '#shared/domain/customers/customers.ts';
import { useTestApi } from '../support/api.ts';
import { merchantFixture, userFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { loadGiftCard, orderWorld, worldBalances } from '../support/money.ts';
import { roleTokens, staffToken } from '../support/staff.ts';

const api = useTestApi();

/**
 * The user is a customer of merchant A (credit 700, gift card 1300, progress 1200 toward a spend campaign) and of
 * merchant B (credit 4100, gift card 2700, progress toward B's own campaign); staff tokens of A per role.
 */
async function customersWorld() {
  const world = await orderWorld();
  const merchantId = world.merchant.merchant.merchant_id;
  const other = await merchantFixture(world.app.app_id);
  const otherId = other.merchant.merchant_id;
  const [spend, locked, otherSpend] = await Promise.all([
    campaignFixture(merchantId, 'spend'),
    campaignFixture(merchantId, 'spend', { locked: true, title: 'Members only' }),
    campaignFixture(otherId, 'spend', { title: 'Other merchant spend' }),
  ]);
  const grant = (token: string, mid: number, value: number) =>
    api.call('POST', '/v15/merchant_funded_credits', {
      authorization: `token merchant="${token}"`,
      body: { merchant_funded_credit: { email: world.user.email, merchant_id: mid, value_amount: value } },
    });
  const adjust = (token: string, campaignId: number, adjustment: number) =>
    api.call('POST', '/v15/progress_adjustments', {
      authorization: `token merchant="${token}"`,
      body: { progress_adjustment: { campaign_id: campaignId, user_id: world.user.user.user_id, adjustment } },
    });
  const setup = await Promise.all([
    grant(world.merchant.token, merchantId, 700),
    grant(other.token, otherId, 4100),
    loadGiftCard(api, world.merchant.token, merchantId, { payment_token_data: world.user.user.payment_token_data, value_amount: 1300 }),
    loadGiftCard(api, other.token, otherId, { payment_token_data: world.user.user.payment_token_data, value_amount: 2700 }),
    adjust(world.merchant.token, spend.campaign_id, 1200),
    adjust(other.token, otherSpend.campaign_id, 900),
  ]);
  for (const response of setup) expect([200, 204], response.text).toContain(response.status);
  return { ...world, merchantId, other, otherId, spend, locked, otherSpend, ...(await roleTokens(world.app.app_id, merchantId)) };
}

let world: Awaited<ReturnType<typeof customersWorld>>;
beforeAll(async () => {
  world = await customersWorld();
});

const base = (merchantId = world.merchantId) => `/v15/merchants/${merchantId}`;
const lookup = (email: string, token = world.staff) => api.call('POST', `${base()}/customer_lookups`, { token, body: { customer_lookup: { email } } });
const show = (userId = world.user.user.user_id, token = world.staff) => api.call('GET', `${base()}/customers/${userId}`, { token });
const grant = (token: string, body: Record<string, unknown>, key?: string) =>
  api.call('POST', `${base()}/customers/${world.user.user.user_id}/credit_grants`, {
    token,
    body: { credit_grant: body },
    headers: key ? { 'Idempotency-Key': key } : undefined,
  });
const unlock = (token: string, campaignId: number, userId = world.user.user.user_id) =>
  api.call('POST', `${base()}/customers/${userId}/campaign_unlockings`, { token, body: { campaign_unlocking: { campaign_id: campaignId } } });

async function auditEntries(action: string) {
  const response = await api.call('GET', `${base()}/audit_log?action=${action}`, { token: world.owner });
  if (response.status === 204) return [];
  expect(response.status, response.text).toBe(200);
  return (response.body as { audit_entry: Record<string, any> }[]).map((entry) => entry.audit_entry);
}

describe('finding a customer and their standing at this merchant only', () => {
  it('finds the customer by exact email (any case, spaces around) with the credit, gift card value and progress of this merchant, none of another', async () => {
    const found = await lookup(`  ${world.user.email.toUpperCase()} `);
    expect(found.status, found.text).toBe(200);
    const customer = found.body.customer;
    expect(customer).toMatchObject({ id: world.user.user.user_id, merchant_id: world.merchantId, credit_amount: 700, gift_card_amount: 1300 });
    expect(customer.campaigns).toEqual([expect.objectContaining({ campaign_id: world.spend.campaign_id, progress: 1200, unlocked: false })]);
    // Merchant B's figures and campaign are nowhere in the answer.
    expect(found.text).not.toContain(`"campaign_id":${world.otherSpend.campaign_id},`);
    expect(found.text).not.toMatch(/4100|2700|"progress":900/);
    const shown = await show();
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toEqual(found.body);
  });

  it('a registered user with nothing at this merchant answers exactly as an email nobody registered (404, same body)', async () => {
    const stranger = await userFixture(world.app.app_id);
    const registered = await lookup(stranger.email, world.owner);
    const unknown = await lookup(`nobody-${randomUUID()}@example.com`, world.owner);
    expect(registered.status, registered.text).toBe(404);
    expect(unknown.status).toBe(404);
    expect(registered.text).toBe(unknown.text);
    expect(registered.body[0].error).toMatchObject({ object: 'customer', property: 'id', code: 'not_found' });
    // By id too: another merchant's customer is not this merchant's to read.
    const byId = await show(stranger.user.user_id, world.owner);
    expect(byId.status).toBe(404);
    expect(byId.text).toBe(unknown.text);
  });

  it(`counts lookups per staff member: one past the ${CUSTOMER_LOOKUPS_PER_STAFF.limit} of the window is 429 with Retry-After, found or not`, async () => {
    const token = await staffToken(world.app.app_id, world.merchantId, 'staff');
    for (let attempt = 0; attempt < CUSTOMER_LOOKUPS_PER_STAFF.limit; attempt++) {
      const response = await lookup(`guess-${attempt}-${randomUUID()}@example.com`, token);
      expect(response.status, response.text).toBe(404);
    }
    const refused = await lookup(world.user.email, token);
    expect(refused.status, refused.text).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body[0].error).toMatchObject({ object: 'customer_lookup', code: 'rate_limited' });
    // Another staff member's window is their own.
    expect((await lookup(world.user.email, world.manager)).status).toBe(200);
  });

  it('refuses a malformed email with 422 in the error format', async () => {
    const response = await lookup('not-an-email');
    expect(response.status, response.text).toBe(422);
    expect(response.body[0].error).toMatchObject({ object: 'customer_lookup', property: 'email' });
  });
});

describe('who may do what (every role on every route)', () => {
  const routes = () => [
    { name: 'lookup', roles: ['owner', 'manager', 'staff'], send: (token: string) => lookup(world.user.email, token) },
    { name: 'show', roles: ['owner', 'manager', 'staff'], send: (token: string) => show(undefined, token) },
    { name: 'grant', roles: ['owner', 'manager'], send: (token: string) => grant(token, { value_amount: 100 }, randomUUID()) },
    { name: 'unlock', roles: ['owner', 'manager'], send: (token: string) => unlock(token, world.locked.campaign_id) },
  ];

  it.each(['lookup', 'show', 'grant', 'unlock'])(
    '%s: the roles it lists answer 200; other roles 403, the shared login 403, another merchant 401',
    async (name) => {
      const route = routes().find((candidate) => candidate.name === name)!;
      const creditBefore = (await worldBalances(world)).credit;
      for (const role of ['owner', 'manager', 'staff'] as const) {
        const response = await route.send(world[role]);
        if (route.roles.includes(role)) {
          expect(response.status, `${role}: ${response.text}`).toBe(200);
        } else {
          expect(response.status, `${role}: ${response.text}`).toBe(403);
          expect(response.body[0].error.code).toBe('role_not_allowed');
        }
      }
      const shared = await route.send(world.merchant.token);
      expect(shared.status, shared.text).toBe(403);
      expect(shared.body[0].error.code).toBe('staff_login_required');
      const otherMerchant = await route.send(world.otherOwner);
      expect(otherMerchant.status, otherMerchant.text).toBe(401);
      // Only the allowed grants moved the credit: owner and manager, 100 each.
      expect((await worldBalances(world)).credit - creditBefore).toBe(name === 'grant' ? 200 : 0);
    },
  );
});

describe('granting credit (the POS grant, approved by the staff member)', () => {
  it("grants through the POS grant's rules: the manager approves, the ledger and the audit log say so, and the customer's credit shows it", async () => {
    const before = (await show(undefined, world.owner)).body.customer.credit_amount;
    const granted = await grant(world.manager, { value_amount: 250, duration_in_seconds: 3600, message: 'Sorry about the wait' }, randomUUID());
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.credit_grant).toMatchObject({ user_id: world.user.user.user_id, value_amount: 250, approved_by_staff_id: world.managerId });
    expect((await show(undefined, world.owner)).body.customer.credit_amount).toBe(before + 250);
    const entry = (await auditEntries('credit.granted')).find((candidate) => candidate.object.id === granted.body.credit_grant.id);
    expect(entry).toMatchObject({ actor: { kind: 'staff', staff_id: world.managerId, role: 'manager' }, approved_by_staff_id: world.managerId });
  });

  it('the same grant sent twice at once under one Idempotency-Key grants once; both answers are that grant or a 409 to retry', async () => {
    const before = (await worldBalances(world)).credit;
    const key = randomUUID();
    const answers = await Promise.all([grant(world.owner, { value_amount: 333 }, key), grant(world.owner, { value_amount: 333 }, key)]);
    const granted = answers.filter((answer) => answer.status === 200);
    expect(granted.length, answers.map((answer) => answer.text).join('\n')).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    expect(new Set(granted.map((answer) => answer.body.credit_grant.id)).size).toBe(1);
    const replay = await grant(world.owner, { value_amount: 333 }, key);
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body.credit_grant.id).toBe(granted[0]!.body.credit_grant.id);
    expect((await worldBalances(world)).credit - before).toBe(333);
  });

  it('refuses what the POS grant refuses (nothing, over $500), and a user with nothing here, changing nothing', async () => {
    const before = (await worldBalances(world)).credit;
    for (const value of [0, 50_001]) {
      const refused = await grant(world.owner, { value_amount: value }, randomUUID());
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body[0].error).toMatchObject({ property: 'value_amount' });
    }
    const stranger = await userFixture(world.app.app_id);
    const notACustomer = await api.call('POST', `${base()}/customers/${stranger.user.user_id}/credit_grants`, {
      token: world.owner,
      body: { credit_grant: { value_amount: 100 } },
    });
    expect(notACustomer.status, notACustomer.text).toBe(404);
    expect((await worldBalances(world)).credit).toBe(before);
  });
});

describe('unlocking a campaign (the POS unlocking, audited)', () => {
  it("unlocks this merchant's locked campaign for the customer: the view shows it, the audit log names who", async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    const response = await api.call('POST', `${base()}/customers/${world.user.user.user_id}/campaign_unlockings`, {
      token: world.manager,
      body: { campaign_unlocking: { campaign_id: world.locked.campaign_id, expires_at: expiresAt } },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.campaign_unlocking).toMatchObject({ campaign_id: world.locked.campaign_id, user_id: world.user.user.user_id, expires_at: expiresAt });
    const campaigns = (await show()).body.customer.campaigns as { campaign_id: number; unlocked: boolean; unlocked_until: string | null }[];
    expect(campaigns.find((campaign) => campaign.campaign_id === world.locked.campaign_id)).toMatchObject({ unlocked: true, unlocked_until: expiresAt });
    const entries = (await auditEntries('customer.campaign_unlocked')).filter((entry) => entry.object.id === String(world.locked.campaign_id));
    expect(entries[0]).toMatchObject({ actor: { kind: 'staff', staff_id: world.managerId, role: 'manager' }, after: { user_id: world.user.user.user_id } });
  });

  it("refuses another merchant's campaign (401) without unlocking it", async () => {
    const locked = await campaignFixture(world.otherId, 'spend', { locked: true });
    const response = await unlock(world.owner, locked.campaign_id);
    expect(response.status, response.text).toBe(401);
    expect((await show()).text).not.toContain(`"campaign_id":${locked.campaign_id}`);
  });
});
