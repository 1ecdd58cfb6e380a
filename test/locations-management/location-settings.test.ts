/**
 * The management API's locations (issue 38; docs/merchant-api.md, "Locations") through HTTP: every role on every
 * route, a location created here serving the app and POS routes as an operator's does, the partial update (a
 * manager's hours and shown only), bad input refused field by field without a change, idempotency, concurrent
 * updates that never lose a field silently, and the audit entry of every change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type StaffRole } from '#shared/routes.ts';
import { runAdmin } from '../support/admin.ts';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { complete, moneyWorld, orderWorld, propose } from '../support/money.ts';
import { walkPages } from '../support/paging.ts';
import { roleTableTests, roleTokens, type RoleProbe } from '../support/staff.ts';

const api = useTestApi();

/** What docs/merchant-api.md says each role may call (written out here, not read from the route table). */
const ALLOWED: Record<string, readonly StaffRole[]> = {
  'location-settings-list': ['owner', 'manager', 'staff'],
  'location-settings-show': ['owner', 'manager', 'staff'],
  'location-settings-create': ['owner'],
  'location-settings-update': ['owner', 'manager'],
};

/** A new location's fields as a console sends them: the required ones and a few settings. */
const NEW_LOCATION = {
  name: 'Harbor Kiosk',
  street_address: '20 Seaport Blvd',
  locality: 'Boston',
  region: 'MA',
  postal_code: '02210',
  latitude: 42.3519,
  longitude: -71.0446,
  time_zone: 'America/New_York',
  fulfillment_types: ['in_store', 'pickup'],
  hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], opens: '07:00', closes: '19:00' }],
  ready_time_estimate_in_minutes: 20,
};

type Tokens = Awaited<ReturnType<typeof roleTokens>>;
let merchantId: number;
let sharedLoginToken: string;
let tokens: Tokens;

beforeAll(async () => {
  const world = await moneyWorld();
  merchantId = world.merchant.merchant.merchant_id;
  sharedLoginToken = world.merchant.token;
  tokens = await roleTokens(world.app.app_id, merchantId);
  await locationFixture(merchantId);
});

const listPath = (merchant: number) => `/v15/merchants/${merchant}/all_locations`;
const locationPath = (merchant: number, locationId?: number) => `/v15/merchants/${merchant}/locations${locationId === undefined ? '' : `/${locationId}`}`;
const ownerListing = async (merchant = merchantId, token = tokens.owner) => (await api.call('GET', listPath(merchant), { token })).text;
const shown = async (locationId: number, merchant = merchantId, token = tokens.owner) =>
  (await api.call('GET', locationPath(merchant, locationId), { token })).body.location;

/** The merchant's audit entries (newest first), as its owner lists them. */
async function auditEntries(merchant: number, token: string, query = '') {
  const listed = await api.call('GET', `/v15/merchants/${merchant}/audit_log${query}`, { token });
  if (listed.status === 204) return [];
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { audit_entry: Record<string, any> }[]).map((item) => item.audit_entry);
}

/** A request of a route on fresh data, and its success status. */
async function probe(handler: string): Promise<RoleProbe> {
  if (handler === 'location-settings-list') return { method: 'GET', path: listPath(merchantId), success: 200 };
  if (handler === 'location-settings-create') return { method: 'POST', path: locationPath(merchantId), body: { location: NEW_LOCATION }, success: 200 };
  const target = await locationFixture(merchantId);
  if (handler === 'location-settings-show') return { method: 'GET', path: locationPath(merchantId, target.location_id), success: 200 };
  if (handler === 'location-settings-update') {
    return { method: 'PUT', path: locationPath(merchantId, target.location_id), body: { location: { shown: false } }, success: 200 };
  }
  throw new Error(`no probe for ${handler}`);
}

describe('location routes by role', () => {
  roleTableTests(api, 'location', 'location-settings-', ALLOWED, () => ({
    probe: async (handler) => ({ ...(await probe(handler)), unchanged: () => ownerListing() }),
    tokens,
    otherOwnerToken: tokens.otherOwner,
    sharedLoginToken,
  }));

  it("another merchant's location is 404 to an owner, and is not changed", async () => {
    const other = await merchantFixture((await appFixture()).app.app_id);
    const theirs = await locationFixture(other.merchant.merchant_id);
    const read = await api.call('GET', locationPath(merchantId, theirs.location_id), { token: tokens.owner });
    expect(read.status).toBe(404);
    expect(read.body).toEqual([{ error: expect.objectContaining({ object: 'location', property: 'id', code: 'not_found' }) }]);
    const update = await api.call('PUT', locationPath(merchantId, theirs.location_id), { token: tokens.owner, body: { location: { shown: false } } });
    expect(update.status).toBe(404);
    const publicView = await api.call('GET', `/v15/locations/${theirs.location_id}`);
    expect(publicView.status, 'still shown to apps').toBe(200);
    expect(await ownerListing()).not.toContain(`"id":${theirs.location_id},`);
  });
});

describe('the list', () => {
  it('pages every location of the merchant by id, hidden ones included, 50 a page, then 204', async () => {
    const world = await moneyWorld();
    const merchant = world.merchant.merchant.merchant_id;
    const owner = (await roleTokens(world.app.app_id, merchant)).owner;
    const made = await Promise.all(Array.from({ length: 53 }, (_, index) => locationFixture(merchant, { shown: index % 2 === 0 })));
    const walk = await walkPages<{ location: { id: number; shown: boolean } }>(api, listPath(merchant), {
      call: { token: owner },
      keyOf: (item) => item.location.id,
    });
    expect(walk.pages.map((page) => page.body.length)).toEqual([50, 3]);
    expect(walk.items.map((item) => item.location.id)).toEqual(made.map((location) => location.location_id).sort((a, b) => a - b));
    expect(walk.items.filter((item) => !item.location.shown)).toHaveLength(26);
    const deep = await api.call('GET', `${listPath(merchant)}?page=2`, { token: owner });
    expect(deep.body.map((item: { location: { id: number } }) => item.location.id)).toEqual(walk.pages[1]!.body.map((item) => item.location.id));
    const badCursor = await api.call('GET', `${listPath(merchant)}?cursor=bm90LWEta2V5`, { token: owner });
    expect(badCursor.status).toBe(422);
  });
});

describe('creating a location', () => {
  it('makes a location that the app and POS routes serve as an operator-made one, with its audit entry', async () => {
    const world = await orderWorld();
    const merchant = world.merchant.merchant.merchant_id;
    const staff = await roleTokens(world.app.app_id, merchant);
    const created = await api.call('POST', locationPath(merchant), { token: staff.owner, body: { location: NEW_LOCATION } });
    expect(created.status, created.text).toBe(200);
    const location = created.body.location;
    expect(location).toMatchObject({ ...NEW_LOCATION, merchant_id: merchant, shown: true, delivery_radius_m: null, categories: [], version: 1 });
    expect(await shown(location.id, merchant, staff.staff)).toEqual(location);

    // The app's list of its merchant's locations and the public details: as for an operator's location.
    const app = (await appFixture({ global: false, merchantIds: [merchant] })).app;
    const listed = await api.call('GET', `/v15/apps/${app.app_id}/locations`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((item: { location: { id: number } }) => item.location.id)).toContain(location.id);
    const details = await api.call('GET', `/v15/locations/${location.id}`);
    expect(details.status).toBe(200);
    expect(details.body.location).toMatchObject({ id: location.id, merchant_id: merchant, hours: 'Mon - Fri 7am - 7pm', ready_time_estimate_in_minutes: 20 });

    // A POS order at it, with the merchant's own login.
    const proposed = await propose(api, world, { location_id: location.id });
    expect(proposed.status, proposed.text).toBe(200);
    const completed = await complete(api, world, proposed.body.proposed_order.uuid, { location_id: location.id });
    expect(completed.status, completed.text).toBe(200);
    const atLocation = await api.call('GET', `/v14/locations/${location.id}/orders`, { token: world.merchant.token });
    expect(atLocation.status, atLocation.text).toBe(200);
    expect(atLocation.text).toContain(completed.body.order.uuid);

    const [entry] = await auditEntries(merchant, staff.owner, '?action=location.created');
    expect(entry).toMatchObject({
      action: 'location.created',
      actor: { kind: 'staff', staff_id: staff.ownerId, role: 'owner' },
      object: { type: 'location', id: String(location.id) },
      before: null,
      after: { id: location.id, street_address: NEW_LOCATION.street_address, shown: true },
    });
  });

  it("the operators' create-location makes the same location, logged as the operator's", async () => {
    const world = await moneyWorld();
    const merchant = world.merchant.merchant.merchant_id;
    const { owner } = await roleTokens(world.app.app_id, merchant);
    const cli = await runAdmin(
      [
        'create-location',
        '--merchant-id',
        String(merchant),
        '--street-address',
        NEW_LOCATION.street_address,
        '--locality',
        NEW_LOCATION.locality,
        '--region',
        NEW_LOCATION.region,
        '--postal-code',
        NEW_LOCATION.postal_code,
        '--lat',
        String(NEW_LOCATION.latitude),
        '--lng',
        String(NEW_LOCATION.longitude),
        '--time-zone',
        NEW_LOCATION.time_zone,
        '--fulfillment-types',
        'in_store,pickup',
        '--hours',
        'mon-fri 07:00-19:00',
      ],
      api,
    );
    expect(cli.code, cli.stderr).toBe(0);
    const made = JSON.parse(cli.stdout).location;
    const throughApi = await api.call('POST', locationPath(merchant), {
      token: owner,
      body: { location: { ...NEW_LOCATION, name: null, ready_time_estimate_in_minutes: 15 } },
    });
    expect(throughApi.status, throughApi.text).toBe(200);
    const [cliView, apiView] = [await shown(made.location_id, merchant, owner), throughApi.body.location];
    const differing = ['id', 'created_at', 'updated_at'];
    const without = (view: Record<string, unknown>) => Object.fromEntries(Object.entries(view).filter(([name]) => !differing.includes(name)));
    expect(without(apiView)).toEqual(without(cliView));
    const entries = await auditEntries(merchant, owner, '?action=location.created');
    expect(entries.map((entry) => [entry.object.id, entry.actor.kind])).toEqual([
      [String(apiView.id), 'staff'],
      [String(made.location_id), 'operator'],
    ]);
  });

  it('a hidden location is kept out of app lists and details', async () => {
    const created = await api.call('POST', locationPath(merchantId), { token: tokens.owner, body: { location: { ...NEW_LOCATION, shown: false } } });
    expect(created.status, created.text).toBe(200);
    expect((await api.call('GET', `/v15/locations/${created.body.location.id}`)).status).toBe(404);
    expect(await ownerListing()).toContain(`"id":${created.body.location.id},`);
  });

  it('answers the first answer again for the same Idempotency-Key, and makes one location', async () => {
    const world = await moneyWorld();
    const merchant = world.merchant.merchant.merchant_id;
    const { owner } = await roleTokens(world.app.app_id, merchant);
    const headers = { 'Idempotency-Key': `create-${merchant}` };
    const answers = await Promise.all(
      [1, 2, 3].map(() => api.call('POST', locationPath(merchant), { token: owner, headers, body: { location: NEW_LOCATION } })),
    );
    const ok = answers.filter((answer) => answer.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.headers.get('retry-after')).not.toBeNull();
    }
    const again = await api.call('POST', locationPath(merchant), { token: owner, headers, body: { location: NEW_LOCATION } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(new Set([...ok, again].map((answer) => answer.body.location.id)).size).toBe(1);
    const listed = await api.call('GET', listPath(merchant), { token: owner });
    expect(listed.body).toHaveLength(1);
    expect(await auditEntries(merchant, owner, '?action=location.created')).toHaveLength(1);
  });

  it('refuses bad input field by field in the error format, and makes nothing', async () => {
    const before = await ownerListing();
    const entriesBefore = await auditEntries(merchantId, tokens.owner);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...NEW_LOCATION, street_address: '  ' }, 'street_address'],
      [{ ...NEW_LOCATION, street_address: undefined }, 'street_address'],
      [{ ...NEW_LOCATION, name: 'x'.repeat(101) }, 'name'],
      [{ ...NEW_LOCATION, time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ ...NEW_LOCATION, categories: [9999] }, 'categories.0'],
      [{ ...NEW_LOCATION, fulfillment_types: ['delivery'] }, 'delivery_radius_m'],
      [{ ...NEW_LOCATION, delivery_radius_m: 2000 }, 'delivery_radius_m'],
      [{ ...NEW_LOCATION, fulfillment_types: ['delivery'], delivery_radius_m: 100_001 }, 'delivery_radius_m'],
      [{ ...NEW_LOCATION, fulfillment_types: [] }, 'fulfillment_types'],
      [{ ...NEW_LOCATION, hours: [{ days: ['mon'], opens: '7am', closes: '19:00' }] }, 'hours.0.opens'],
      [{ ...NEW_LOCATION, hours: Array.from({ length: 29 }, () => ({ days: ['mon'], opens: '07:00', closes: '08:00' })) }, 'hours'],
      [{ ...NEW_LOCATION, ready_time_estimate_in_minutes: 1441 }, 'ready_time_estimate_in_minutes'],
      [{ ...NEW_LOCATION, ready_time_estimate_in_minutes: 2.5 }, 'ready_time_estimate_in_minutes'],
      [{ ...NEW_LOCATION, yelp_url: 'javascript:alert(1)' }, 'yelp_url'],
      [{ ...NEW_LOCATION, merchant_id: 1 }, 'merchant_id'],
      [{ ...NEW_LOCATION, latitude: 91 }, 'latitude'],
    ];
    for (const [location, property] of cases) {
      const response = await api.call('POST', locationPath(merchantId), { token: tokens.owner, body: { location } });
      expect(response.status, `${property}: ${response.text}`).toBe(422);
      expect(response.body, property).toContainEqual({ error: expect.objectContaining({ object: 'location', property }) });
    }
    expect(await ownerListing()).toBe(before);
    expect(await auditEntries(merchantId, tokens.owner)).toEqual(entriesBefore);
  });
});

describe('updating a location', () => {
  const put = (locationId: number, location: Record<string, unknown>, token = tokens.owner, headers?: Record<string, string>) =>
    api.call('PUT', locationPath(merchantId, locationId), { token, headers, body: { location } });

  it("an owner changes every setting the issue names; only those change, and the apps' views follow", async () => {
    const location = await locationFixture(merchantId, { fulfillment_types: ['in_store'] });
    const before = await shown(location.location_id);
    const change = {
      hours: [{ days: ['sat', 'sun'], opens: '09:00', closes: '17:00' }],
      fulfillment_types: ['in_store', 'delivery', 'delivery'],
      delivery_radius_m: 3500,
      accepts_tips_in_store: false,
      accepts_tips_on_delivery: true,
      accepts_tips_on_pickup: false,
      ready_time_estimate_in_minutes: 35,
      shown: false,
    };
    const response = await put(location.location_id, change);
    expect(response.status, response.text).toBe(200);
    const after = response.body.location;
    expect(after).toEqual({ ...before, ...change, fulfillment_types: ['in_store', 'delivery'], version: before.version + 1, updated_at: after.updated_at });
    expect(await shown(location.location_id)).toEqual(after);
    // Hidden now: out of the public details; the change feed (GET /v14/locations) lists it as changed, hidden.
    expect((await api.call('GET', `/v15/locations/${location.location_id}`)).status).toBe(404);
    const feed = await walkPages<{ location: { id: number; shown: boolean; updated_at: string } }>(
      api,
      `/v14/locations?since=${encodeURIComponent(location.updated_at)}`,
      { keyOf: (item) => `${item.location.id}@${item.location.updated_at}`, maxPages: 200 },
    );
    const rows = feed.items.filter((item) => item.location.id === location.location_id);
    expect(rows.map((item) => [item.location.shown, item.location.updated_at])).toEqual([[false, after.updated_at]]);
  });

  it('a manager changes hours and shown only: any other field is 403 and changes nothing', async () => {
    const location = await locationFixture(merchantId);
    const hours = [{ days: ['mon'], opens: '10:00', closes: '14:00' }];
    const allowed = await put(location.location_id, { hours, shown: false }, tokens.manager);
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.location).toMatchObject({ hours, shown: false });
    const before = await shown(location.location_id);
    for (const field of [{ ready_time_estimate_in_minutes: 5 }, { accepts_tips_in_store: false }, { fulfillment_types: ['pickup'] }]) {
      const refused = await put(location.location_id, { shown: true, ...field }, tokens.manager);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body).toEqual([{ error: expect.objectContaining({ object: 'location', property: Object.keys(field)[0], code: 'role_not_allowed' }) }]);
    }
    expect(await shown(location.location_id)).toEqual(before);
  });

  it('keeps the rules of creation on the location the change leaves; bad input is 422 and changes nothing', async () => {
    const delivering = await locationFixture(merchantId, { fulfillment_types: ['in_store', 'delivery'], delivery_radius_m: 2000 });
    const before = await shown(delivering.location_id);
    const entriesBefore = await auditEntries(merchantId, tokens.owner);
    const cases: [Record<string, unknown>, string][] = [
      [{ fulfillment_types: ['in_store'] }, 'delivery_radius_m'],
      [{ delivery_radius_m: null }, 'delivery_radius_m'],
      [{ delivery_radius_m: -1 }, 'delivery_radius_m'],
      [{}, 'base'],
      [{ street_address: '1 Other St' }, 'street_address'],
      [{ shown: 'no' }, 'shown'],
      [{ hours: [{ days: ['someday'], opens: '07:00', closes: '19:00' }] }, 'hours.0.days.0'],
      [{ ready_time_estimate_in_minutes: -5 }, 'ready_time_estimate_in_minutes'],
    ];
    for (const [location, property] of cases) {
      const response = await put(delivering.location_id, location);
      expect(response.status, `${property}: ${response.text}`).toBe(422);
      expect(response.body, property).toContainEqual({ error: expect.objectContaining({ object: 'location', property }) });
    }
    expect(await shown(delivering.location_id)).toEqual(before);
    expect(await auditEntries(merchantId, tokens.owner)).toEqual(entriesBefore);
    // Stopping delivery with the radius cleared in the same change is fine.
    const stopped = await put(delivering.location_id, { fulfillment_types: ['in_store'], delivery_radius_m: null });
    expect(stopped.status, stopped.text).toBe(200);
  });

  it('writes its audit entry with the changed fields before and after; a change that changes nothing writes nothing', async () => {
    const world = await moneyWorld();
    const merchant = world.merchant.merchant.merchant_id;
    const staff = await roleTokens(world.app.app_id, merchant);
    const location = await locationFixture(merchant, { ready_time_estimate_in_minutes: 15 });
    const path = locationPath(merchant, location.location_id);
    const changed = await api.call('PUT', path, { token: staff.manager, body: { location: { shown: false, hours: location.hours } } });
    expect(changed.status, changed.text).toBe(200);
    const same = await api.call('PUT', path, { token: staff.owner, body: { location: { shown: false } } });
    expect(same.status).toBe(200);
    expect(same.body.location.version).toBe(changed.body.location.version);
    expect(await auditEntries(merchant, staff.owner, '?action=location.updated')).toEqual([
      expect.objectContaining({
        actor: { kind: 'staff', staff_id: staff.managerId, role: 'manager' },
        object: { type: 'location', id: String(location.location_id) },
        before: { shown: true },
        after: { shown: false },
      }),
    ]);
  });

  it('answers the first answer again for the same Idempotency-Key, and changes once', async () => {
    const location = await locationFixture(merchantId);
    const headers = { 'Idempotency-Key': `update-${location.location_id}` };
    const first = await put(location.location_id, { ready_time_estimate_in_minutes: 40 }, tokens.owner, headers);
    expect(first.status, first.text).toBe(200);
    await put(location.location_id, { ready_time_estimate_in_minutes: 45 });
    const replay = await put(location.location_id, { ready_time_estimate_in_minutes: 40 }, tokens.owner, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await shown(location.location_id)).ready_time_estimate_in_minutes).toBe(45);
  });

  it('concurrent changes never lose a field silently: each is applied or refused 409 with Retry-After', async () => {
    const world = await moneyWorld();
    const merchant = world.merchant.merchant.merchant_id;
    const staff = await roleTokens(world.app.app_id, merchant);
    const location = await locationFixture(merchant, { fulfillment_types: ['in_store'], ready_time_estimate_in_minutes: 15 });
    const changes: Record<string, unknown>[] = [
      { ready_time_estimate_in_minutes: 30 },
      { accepts_tips_in_store: false },
      { accepts_tips_on_pickup: false },
      { accepts_tips_on_delivery: false },
      { hours: [{ days: ['sun'], opens: '08:00', closes: '12:00' }] },
      { shown: false },
    ];
    const path = locationPath(merchant, location.location_id);
    const answers: ApiResult[] = await Promise.all(changes.map((change) => api.call('PUT', path, { token: staff.owner, body: { location: change } })));
    const applied = changes.filter((_, index) => answers[index]!.status === 200);
    expect(applied.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.status, answer.text).toBe(409);
      expect(answer.body).toEqual([{ error: expect.objectContaining({ object: 'location', code: 'location_changed' }) }]);
      expect(answer.headers.get('retry-after')).not.toBeNull();
    }
    const final = await shown(location.location_id, merchant, staff.owner);
    const refused = changes.filter((_, index) => answers[index]!.status !== 200);
    const initial = {
      ready_time_estimate_in_minutes: 15,
      accepts_tips_in_store: true,
      accepts_tips_on_pickup: true,
      accepts_tips_on_delivery: true,
      hours: location.hours,
      shown: true,
    };
    for (const change of applied) expect(final).toMatchObject(change);
    for (const change of refused) {
      const [field] = Object.keys(change) as (keyof typeof initial)[];
      expect(final[field!], `${field} was refused, so it keeps its value`).toEqual(initial[field!]);
    }
    expect(final.version).toBe(1 + applied.length);
    expect(await auditEntries(merchant, staff.owner, '?action=location.updated')).toHaveLength(applied.length);
  });
});
