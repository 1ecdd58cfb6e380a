/**
 * A merchant's campaigns through the management API (issue 38; docs/merchant-api.md "Campaigns"): every role on
 * every route, every kind the loyalty engine runs created through the API, bad input refused without a change,
 * idempotency, edits that leave the economics alone, closing, and the audit log entry of each change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Campaign, CAMPAIGN_KINDS } from '#shared/domain/loyalty/campaigns.ts';
import { MANAGED_CAMPAIGN_KINDS } from '#shared/schemas/campaigns.ts';
import type { StaffRole } from '#shared/routes.ts';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { campaignFixture, uniqueCode } from '../support/loyalty.ts';
import { moneyWorld } from '../support/money.ts';
import { walkPages } from '../support/paging.ts';
import { roleTokens } from '../support/staff.ts';

const api = useTestApi();

type World = Awaited<ReturnType<typeof campaignWorld>>;

/** A merchant with one token per role (and its shared login), another merchant's owner, and another merchant's id. */
async function campaignWorld() {
  const world = await moneyWorld();
  const merchantId = world.merchant.merchant.merchant_id;
  const other = await merchantFixture(world.app.app_id);
  return { ...world, merchantId, merchant2Id: other.merchant.merchant_id, ...(await roleTokens(world.app.app_id, merchantId)) };
}

let world: World;
beforeAll(async () => {
  world = await campaignWorld();
});

const collection = (merchantId: number) => `/v15/merchants/${merchantId}/campaigns`;
/** The management list: beside the apps' public `.../campaigns` (A19), which answers the open ones only. */
const managedList = (merchantId: number) => `/v15/merchants/${merchantId}/all_campaigns`;
const one = (merchantId: number, campaignId: number, tail = '') => `${collection(merchantId)}/${campaignId}${tail}`;

/** What each kind needs, as a merchant's console sends it (docs/loyalty.md's table). */
const BODIES: Record<(typeof MANAGED_CAMPAIGN_KINDS)[number], () => Record<string, unknown>> = {
  spend: () => ({ kind: 'spend', title: 'Spend $50, get $5', required_spend_amount: 5000, earn_amount: 500 }),
  item: () => ({ kind: 'item', title: 'Buy 5 coffees', required_item_count: 5, earn_amount: 300, item_rules: [{ field: 'sku', value: 'COFFEE-12' }] }),
  visit: () => ({ kind: 'visit', title: 'Visit 3 times', required_visit_count: 3, qualifying_order_spend_amount: 500, earn_amount: 400 }),
  item_gift_card: () => ({
    kind: 'item_gift_card',
    title: 'Bagel club',
    required_item_count: 4,
    earn_amount: 200,
    progress_period_days: 30,
    item_rules: [{ field: 'name', value: 'Bagel' }],
  }),
  spend_gift_card: () => ({ kind: 'spend_gift_card', title: 'Monthly spender', required_spend_amount: 10000, earn_amount: 1000, progress_period_days: 30 }),
  custom_progress: () => ({
    kind: 'custom_progress',
    title: 'Points journey',
    progress_type: 'spend',
    goals: [
      { title: 'Bronze', progress_required: 2000, earn_amount: 100 },
      { title: 'Silver', progress_required: 5000 },
    ],
  }),
  value: () => ({ kind: 'value', title: '$5 welcome credit', value_amount: 500, cohort_code: uniqueCode('WELCOME') }),
};

function create(merchantId: number, token: string, campaign: Record<string, unknown>, headers?: Record<string, string>) {
  return api.call('POST', collection(merchantId), { token, body: { campaign }, headers });
}

async function created(campaign: Record<string, unknown> = BODIES.spend()): Promise<{ id: number; [field: string]: unknown }> {
  const response = await create(world.merchantId, world.owner, campaign);
  expect(response.status, response.text).toBe(200);
  return response.body.campaign;
}

async function auditEntries(action: string) {
  const response = await api.call('GET', `/v15/merchants/${world.merchantId}/audit_log?action=${action}`, { token: world.owner });
  if (response.status === 204) return [];
  expect(response.status, response.text).toBe(200);
  return (response.body as { audit_entry: { object: { id: string }; actor: { staff_id: number }; before: unknown; after: unknown } }[]).map(
    (entry) => entry.audit_entry,
  );
}

const entriesOf = async (action: string, campaignId: number) => (await auditEntries(action)).filter((entry) => entry.object.id === String(campaignId));

/** The stored campaign as the engine reads it (the table, not the API under test). */
const stored = (campaignId: number) => Campaign.at(campaignId).get({ consistent: true });

function expectRefused(response: ApiResult, status: number, code?: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body[0].error).toMatchObject({ object: expect.any(String), property: expect.any(String), message: expect.any(String) });
  if (code) expect(response.body[0].error.code).toBe(code);
}

describe('who may do what (every role on every route)', () => {
  /** What docs/merchant-api.md says each role may call (written out here, not read from the route table). */
  const ALLOWED: Record<string, readonly StaffRole[]> = {
    list: ['owner', 'manager'],
    show: ['owner', 'manager'],
    create: ['owner'],
    update: ['owner'],
    close: ['owner'],
  };
  const requests = (campaignId: number): Record<string, { method: string; path: string; body?: unknown }> => ({
    list: { method: 'GET', path: managedList(world.merchantId) },
    show: { method: 'GET', path: one(world.merchantId, campaignId) },
    create: { method: 'POST', path: collection(world.merchantId), body: { campaign: BODIES.spend() } },
    update: { method: 'PUT', path: one(world.merchantId, campaignId), body: { campaign: { title: 'Renamed' } } },
    close: { method: 'POST', path: one(world.merchantId, campaignId, '/close') },
  });

  it.each(Object.keys(ALLOWED))(
    '%s: roles it lists answer; other roles 403 role_not_allowed, the shared login 403, another merchant 401, none changing anything',
    async (operation) => {
      const campaign = await created();
      const request = requests(campaign.id)[operation]!;
      const before = await stored(campaign.id);
      const refusals = [
        ...(['owner', 'manager', 'staff'] as const)
          .filter((role) => !ALLOWED[operation]!.includes(role))
          .map((role) => [world[role], 403, 'role_not_allowed'] as const),
        [world.merchant.token, 403, 'staff_login_required'] as const,
        [world.otherOwner, 401, undefined] as const,
      ];
      for (const [token, status, code] of refusals) {
        expectRefused(await api.call(request.method, request.path, { token, body: request.body }), status, code);
      }
      expect(await stored(campaign.id)).toEqual(before);
      expect(await entriesOf('campaign.updated', campaign.id)).toEqual([]);
      expect(await entriesOf('campaign.closed', campaign.id)).toEqual([]);
      for (const role of ALLOWED[operation]!) {
        const answered = await api.call(request.method, request.path, { token: world[role], body: request.body });
        expect(answered.status, `${role}: ${answered.text}`).toBe(200);
      }
    },
  );
});

describe('creating every kind', () => {
  it("offers every kind of the loyalty engine but legacy, whose cards and app pointer are the operators'", () => {
    expect([...MANAGED_CAMPAIGN_KINDS].sort()).toEqual(CAMPAIGN_KINDS.filter((kind) => kind !== 'legacy').sort());
  });

  it.each(MANAGED_CAMPAIGN_KINDS)("creates a %s campaign for the path's merchant, open now, with its audit entry", async (kind) => {
    // A merchant_id in the body is not the merchant: the path is.
    const response = await create(world.merchantId, world.owner, { ...BODIES[kind](), merchant_id: world.merchant2Id });
    expect(response.status, response.text).toBe(200);
    const campaign = response.body.campaign;
    expect(campaign).toMatchObject({ kind, merchant_id: world.merchantId, state: 'open', claims_count: 0, closes_at: null });
    expect((await stored(campaign.id))?.merchant_id).toBe(world.merchantId);
    const shown = await api.call('GET', one(world.merchantId, campaign.id), { token: world.manager });
    expect(shown.body).toEqual(response.body);
    const [entry] = await entriesOf('campaign.created', campaign.id);
    expect(entry).toMatchObject({ actor: { kind: 'staff', staff_id: world.ownerId }, before: null, after: { kind, title: campaign.title } });
  });

  it('refuses a legacy campaign, a kind without its requirement, and what the engine cannot run, with 422 naming the field; nothing is created', async () => {
    const listed = async () =>
      (
        await walkPages<{ campaign: { id: number } }>(api, managedList(world.merchantId), {
          call: { token: world.owner },
          keyOf: (item) => item.campaign.id,
        })
      ).items.length;
    const before = await listed();
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'legacy', title: 'Old cards', app_id: world.app.app_id }, 'kind'],
      [{ kind: 'spend', title: 'No requirement', earn_amount: 500 }, 'required_spend_amount'],
      [{ kind: 'item', title: 'No rules', required_item_count: 3, earn_amount: 100 }, 'item_rules'],
      [{ kind: 'item_gift_card', title: 'No period', required_item_count: 3, item_rules: [{ field: 'sku', value: 'A' }] }, 'progress_period_days'],
      [{ kind: 'custom_progress', title: 'No goals', progress_type: 'spend' }, 'goals'],
      [{ kind: 'value', title: 'No code', value_amount: 500 }, 'cohort_code'],
      [{ kind: 'value', title: 'No value', cohort_code: uniqueCode('NOVALUE') }, 'value_amount'],
      [{ kind: 'spend', title: 'Opt in without a code', required_spend_amount: 100, requires_opt_in: true }, 'cohort_code'],
      [{ kind: 'spend', title: 'Closed already', required_spend_amount: 100, closes_at: '2020-01-01T00:00:00Z' }, 'closes_at'],
      [{ kind: 'spend', title: 'Backwards', required_spend_amount: 100, opens_at: '2099-02-01T00:00:00Z', closes_at: '2099-01-01T00:00:00Z' }, 'closes_at'],
      [{ kind: 'spend', title: 'x'.repeat(101), required_spend_amount: 100 }, 'title'],
      [{ kind: 'spend', title: 'Huge reward', required_spend_amount: 100, earn_amount: 50_001 }, 'earn_amount'],
      [{ kind: 'spend', title: 'Negative', required_spend_amount: -5 }, 'required_spend_amount'],
      [{ kind: 'spend', title: 'Euros', required_spend_amount: 100, currency: 'EUR' }, 'currency'],
      [{ kind: 'spend', title: 'Tags', required_spend_amount: 100, tags: Array.from({ length: 11 }, (_, index) => `t${index}`) }, 'tags'],
      [{ kind: 'spend', title: 'Late hours', required_spend_amount: 100, usable_hours: { start: '24:00', end: '10:00' } }, 'usable_hours.start'],
      [{ kind: 'points', title: 'Unknown kind' }, 'kind'],
    ];
    for (const [campaign, field] of cases) {
      const response = await create(world.merchantId, world.owner, campaign);
      expect(response.status, `${field}: ${response.text}`).toBe(422);
      expect(
        response.body.map((error: { error: { property: string } }) => error.error.property),
        response.text,
      ).toContain(field);
    }
    expect(await listed()).toBe(before);
  });

  it('refuses a cohort code in use (422 taken), whichever merchant holds it', async () => {
    const code = uniqueCode('TAKEN');
    await campaignFixture(world.merchant2Id, 'value', { cohort_code: code });
    const response = await create(world.merchantId, world.owner, { ...BODIES.value(), cohort_code: code.toLowerCase() });
    expectRefused(response, 422, 'taken');
    expect(response.body[0].error.property).toBe('cohort_code');
  });
});

describe('idempotency', () => {
  it('answers a repeated key with the first answer and creates one campaign, also when both are sent at once', async () => {
    const fresh = await campaignWorld();
    const key = { 'Idempotency-Key': `create-${uniqueCode()}` };
    const body = BODIES.value();
    const [first, second] = await Promise.all([create(fresh.merchantId, fresh.owner, body, key), create(fresh.merchantId, fresh.owner, body, key)]);
    const answers = [first, second].filter((response) => response.status === 200);
    // Both at once: one runs, the other is 409 (in flight) or the replay.
    expect(answers.length).toBeGreaterThanOrEqual(1);
    for (const response of [first, second]) expect([200, 409], response.text).toContain(response.status);
    const replay = await create(fresh.merchantId, fresh.owner, body, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(answers[0]!.body);
    const listed = await api.call('GET', managedList(fresh.merchantId), { token: fresh.owner });
    expect(listed.body).toHaveLength(1);
    // Another body under the same key is refused, not run.
    expectRefused(await create(fresh.merchantId, fresh.owner, { ...body, title: 'Other' }, key), 422, 'mismatch');
  });
});

describe('idempotency of edits and closes', () => {
  it('replays an edit and a close sent again with their keys: each changes the campaign once, with one audit entry', async () => {
    const campaign = await created();
    const edit = { token: world.owner, body: { campaign: { title: 'Edited once' } }, headers: { 'Idempotency-Key': `edit-${uniqueCode()}` } };
    const first = await api.call('PUT', one(world.merchantId, campaign.id), edit);
    const again = await api.call('PUT', one(world.merchantId, campaign.id), edit);
    expect(first.status, first.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const close = { token: world.owner, headers: { 'Idempotency-Key': `close-${uniqueCode()}` } };
    const closed = await api.call('POST', one(world.merchantId, campaign.id, '/close'), close);
    const closedAgain = await api.call('POST', one(world.merchantId, campaign.id, '/close'), close);
    expect(closed.status, closed.text).toBe(200);
    expect(closedAgain.body).toEqual(closed.body);
    expect((await stored(campaign.id))?.version).toBe(2);
    expect(await entriesOf('campaign.updated', campaign.id)).toHaveLength(1);
    expect(await entriesOf('campaign.closed', campaign.id)).toHaveLength(1);
  });
});

describe('listing', () => {
  it('pages every campaign of the merchant by id, open, scheduled and closed, with its state; none of another merchant', async () => {
    const fresh = await campaignWorld();
    const open = [];
    // One after another: each creation also counts the merchant's campaigns (one item every creation updates).
    for (let index = 0; index < 52; index++) open.push(await campaignFixture(fresh.merchantId, 'spend'));
    const scheduled = await campaignFixture(fresh.merchantId, 'visit', { opens_at: '2099-01-01T00:00:00Z' });
    const closed = await campaignFixture(fresh.merchantId, 'spend', { opens_at: '2020-01-01T00:00:00Z', closes_at: '2020-02-01T00:00:00Z' });
    await campaignFixture(world.merchantId, 'spend');
    const walk = await walkPages<{ campaign: { id: number; state: string; merchant_id: number } }>(api, managedList(fresh.merchantId), {
      call: { token: fresh.manager },
      keyOf: (item) => item.campaign.id,
    });
    expect(walk.pages[0]!.body).toHaveLength(50);
    const ids = walk.items.map((item) => item.campaign.id);
    expect(ids).toEqual([...open.map((campaign) => campaign.campaign_id), scheduled.campaign_id, closed.campaign_id].sort((a, b) => a - b));
    const states = Object.fromEntries(walk.items.map((item) => [item.campaign.id, item.campaign.state]));
    expect([states[open[0]!.campaign_id], states[scheduled.campaign_id], states[closed.campaign_id]]).toEqual(['open', 'scheduled', 'closed']);
    expect(walk.items.every((item) => item.campaign.merchant_id === fresh.merchantId)).toBe(true);
  });

  it("answers another merchant's campaign id as not found (404), and a page past the reachable ones 422", async () => {
    const theirs = await campaignFixture(world.merchant2Id, 'spend');
    const response = await api.call('GET', one(world.merchantId, theirs.campaign_id), { token: world.owner });
    expectRefused(response, 404, 'not_found');
    expectRefused(await api.call('GET', `${managedList(world.merchantId)}?page=101`, { token: world.owner }), 422, 'too_deep');
    expectRefused(await api.call('GET', `${managedList(world.merchantId)}?cursor=bm9wZQ`, { token: world.owner }), 422);
  });
});

describe('editing', () => {
  it('changes how a campaign reads, with before and after in its audit entry', async () => {
    const campaign = await created();
    const response = await api.call('PUT', one(world.merchantId, campaign.id), {
      token: world.owner,
      body: { campaign: { title: 'Spend $50, get $5 back', description: 'Now with words', reward_title: '$5 back' } },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.campaign).toMatchObject({
      title: 'Spend $50, get $5 back',
      description: 'Now with words',
      reward_title: '$5 back',
      required_spend_amount: 5000,
    });
    const [entry] = await entriesOf('campaign.updated', campaign.id);
    expect(entry).toMatchObject({
      actor: { kind: 'staff', staff_id: world.ownerId },
      before: { title: campaign.title, description: '', reward_title: campaign.title },
      after: { title: 'Spend $50, get $5 back', description: 'Now with words', reward_title: '$5 back' },
    });
  });

  it('refuses a change of the economics with 422 not_editable naming each field, and changes nothing; the same values pass', async () => {
    const campaign = await created(BODIES.custom_progress());
    const before = await stored(campaign.id);
    const refused = await api.call('PUT', one(world.merchantId, campaign.id), {
      token: world.owner,
      body: { campaign: { title: 'Cheaper goals', kind: 'spend', goals: [{ title: 'Bronze', progress_required: 10, earn_amount: 100 }], earn_amount: 999 } },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.map((error: { error: { property: string; code: string } }) => [error.error.property, error.error.code]).sort()).toEqual([
      ['earn_amount', 'not_editable'],
      ['goals', 'not_editable'],
      ['kind', 'not_editable'],
    ]);
    expect(await stored(campaign.id)).toEqual(before);
    // What the console shows, sent back with a new title: only the title changes.
    const shown = (await api.call('GET', one(world.merchantId, campaign.id), { token: world.owner })).body.campaign;
    const {
      id: _id,
      merchant_id: _merchant,
      state: _state,
      claims_count: _claims,
      app_id: _app,
      progress_campaign_id: _progress,
      created_at: _created,
      updated_at: _updated,
      ...fields
    } = shown;
    const accepted = await api.call('PUT', one(world.merchantId, campaign.id), {
      token: world.owner,
      body: { campaign: { ...fields, title: 'Points, renamed' } },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.campaign).toEqual({ ...shown, title: 'Points, renamed', updated_at: accepted.body.campaign.updated_at });
  });

  it("moves the end later only, never reopens a closed campaign, and answers another merchant's campaign 404", async () => {
    const campaign = await created({ ...BODIES.spend(), closes_at: '2099-01-01T00:00:00Z' });
    const put = (closesAt: string | null, id = campaign.id) =>
      api.call('PUT', one(world.merchantId, id), { token: world.owner, body: { campaign: { closes_at: closesAt } } });
    expect((await put('2099-06-01T00:00:00Z')).body.campaign.closes_at).toBe('2099-06-01T00:00:00+00:00');
    expectRefused(await put('2098-01-01T00:00:00Z'), 422, 'not_later');
    expect((await put(null)).body.campaign.closes_at).toBeNull();
    expectRefused(await put('2099-01-01T00:00:00Z'), 422, 'not_later');
    const closed = await campaignFixture(world.merchantId, 'spend', { opens_at: '2020-01-01T00:00:00Z', closes_at: '2020-02-01T00:00:00Z' });
    expectRefused(await put('2099-01-01T00:00:00Z', closed.campaign_id), 422, 'campaign_closed');
    const theirs = await campaignFixture(world.merchant2Id, 'spend');
    const before = await stored(theirs.campaign_id);
    expectRefused(
      await api.call('PUT', one(world.merchantId, theirs.campaign_id), { token: world.owner, body: { campaign: { title: 'Mine now' } } }),
      404,
      'not_found',
    );
    expect(await stored(theirs.campaign_id)).toEqual(before);
  });

  it('refuses an edit naming nothing editable, and bad values, with 422', async () => {
    const campaign = await created();
    for (const body of [
      {},
      { campaign: {} },
      { campaign: { title: '' } },
      { campaign: { description: 'x'.repeat(1001) } },
      { campaign: { closes_at: 'soon' } },
    ]) {
      const response = await api.call('PUT', one(world.merchantId, campaign.id), { token: world.owner, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
  });

  it("serializes concurrent edits by the campaign's version: each answers 200 or 409 with Retry-After, never a lost write or a 500", async () => {
    const campaign = await created();
    const titles = Array.from({ length: 6 }, (_, index) => `Concurrent ${index}`);
    const answers = await Promise.all(
      titles.map((title) => api.call('PUT', one(world.merchantId, campaign.id), { token: world.owner, body: { campaign: { title } } })),
    );
    for (const answer of answers) {
      expect([200, 409], answer.text).toContain(answer.status);
      if (answer.status === 409) expect(answer.headers.get('retry-after')).toBeTruthy();
    }
    const won = answers.filter((answer) => answer.status === 200).length;
    expect(won).toBeGreaterThanOrEqual(1);
    // Each committed edit raised the version once and wrote one audit entry.
    expect((await stored(campaign.id))?.version).toBe(won);
    expect(await entriesOf('campaign.updated', campaign.id)).toHaveLength(won);
  });
});
