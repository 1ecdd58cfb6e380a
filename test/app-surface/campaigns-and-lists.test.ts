/**
 * A18-A22 and A28-A31 of the SDK reference through HTTP, with the reference's payloads: campaign metadata by
 * location and merchant (and the iOS flow that follows it), the v14 campaign, cohort code lookups, campaign
 * merchants; location summaries with resumable paging, the v14 app locations as the Ruby gem and iOS read
 * them, and the user's orders (Android v14, the Ruby gem).
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { runAdmin } from '../support/admin.ts';
import { expectEmptyNotFounds } from '../support/answers.ts';
import { useTestApi } from '../support/api.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { campaignFixture, uniqueCode } from '../support/loyalty.ts';
import { locationFixture, nextLink } from '../support/locations.ts';
import { orderWorld, placeOrder } from '../support/money.ts';
import { politeCall } from '../support/fuzz.ts';
import { CODE_LOOKUPS_PER_CLIENT } from '#shared/domain/app-surface/campaigns.ts';

const api = useTestApi();

async function campaignWorld() {
  const { app } = await appFixture({ global: true });
  const merchant = await merchantFixture(app.app_id);
  const merchantId = merchant.merchant.merchant_id;
  const location = await locationFixture(merchantId);
  const spend = await campaignFixture(merchantId, 'spend');
  const visit = await campaignFixture(merchantId, 'visit');
  const code = uniqueCode('WELCOME');
  const value = await campaignFixture(merchantId, 'value', { cohort_code: code });
  const locked = await campaignFixture(merchantId, 'spend', { locked: true });
  const closed = await campaignFixture(merchantId, 'visit', { opens_at: '2020-01-01T00:00:00Z', closes_at: '2020-02-01T00:00:00Z' });
  const user = await userFixture(app.app_id);
  return { app, merchant, merchantId, location, spend, visit, value, code, locked, closed, user };
}

type CampaignWorld = Awaited<ReturnType<typeof campaignWorld>>;

/** A fresh campaign world and the client's GET in it: 200, in the shape of the client's reference body. */
async function campaignGet<Reference extends { response_body: unknown }>(reference: Reference, path: (world: CampaignWorld) => string) {
  const world = await campaignWorld();
  const response = await api.call('GET', path(world));
  expect(response.status).toBe(200);
  expectShapeOf(response.body, reference.response_body);
  return { world, response, reference };
}

describe('A18/A19 campaign metadata by location and merchant', () => {
  it("lists a location's public campaigns with representation_types, as the iOS fixture; iOS then fetches one it lists", async () => {
    const { world, response } = await campaignGet(
      clientPayload('ios_v15_locations_id_campaigns__list.json'),
      (w) => `/v15/locations/${w.location.location_id}/campaigns`,
    );
    const byId = new Map<number, string[]>(
      response.body.map((row: { campaign: { id: number; representation_types: string[] } }) => [row.campaign.id, row.campaign.representation_types]),
    );
    expect([...byId.keys()].sort((a, b) => a - b)).toEqual([world.spend.campaign_id, world.visit.campaign_id, world.value.campaign_id]);
    expect(byId.get(world.spend.campaign_id)).toEqual(['basic_v1', 'spend_based_loyalty_v1']);
    expect(byId.get(world.visit.campaign_id)).toEqual(['basic_v1', 'visit_based_loyalty_v1']);
    expect(byId.get(world.value.campaign_id)).toEqual(['basic_v1']);
    // The iOS flow: every listed representation is served for that campaign.
    for (const [id, types] of byId) {
      for (const type of types) {
        const shown = await api.call('GET', `/v15/campaigns/${id}/${type}`, { token: world.user.token });
        expect(shown.status, `${id} ${type}`).toBe(200);
      }
    }
  });

  it('lists the same for the merchant; unknown or hidden locations and unknown merchants are 404 with an empty body', async () => {
    const reference = clientPayload('ios_v15_locations_id_campaigns__list.json').merchant_variant;
    const world = await campaignWorld();
    const merchant = await api.call('GET', `/v15/merchants/${world.merchantId}/campaigns`);
    expect(merchant.status).toBe(200);
    expectShapeOf(merchant.body, reference.response_body);
    const atLocation = await api.call('GET', `/v15/locations/${world.location.location_id}/campaigns`);
    expect(merchant.body).toEqual(atLocation.body);
    const hidden = await locationFixture(world.merchantId, { shown: false });
    await expectEmptyNotFounds(api, [
      `/v15/locations/${hidden.location_id}/campaigns`,
      '/v15/locations/999999999/campaigns',
      '/v15/merchants/999999999/campaigns',
      '/v15/locations/abc/campaigns',
    ]);
    const otherMerchant = await merchantFixture(world.app.app_id);
    const none = await api.call('GET', `/v15/merchants/${otherMerchant.merchant.merchant_id}/campaigns`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });
});

describe('A20-A22 v14 campaign, cohort code, campaign merchants', () => {
  it('answers a public campaign in the v14 shape the SDKs read; locked, closed and unknown ones are 404', async () => {
    const { world, response } = await campaignGet(clientPayload('ios_v14_campaigns_id__show.json'), (w) => `/v14/campaigns/${w.value.campaign_id}`);
    expect(response.body.campaign).toMatchObject({
      id: world.value.campaign_id,
      name: world.value.title,
      value_amount: 500,
      applies_to_all_merchants: false,
      sponsor: world.merchant.merchant.name,
      type: 'value',
    });
    const spend = await api.call('GET', `/v14/campaigns/${world.spend.campaign_id}`);
    expect(spend.body.campaign.value_amount).toBe(world.spend.earn_amount);
    for (const id of [world.locked.campaign_id, world.closed.campaign_id, 999999999]) {
      const hidden = await api.call('GET', `/v14/campaigns/${id}`);
      expect(hidden.status).toBe(404);
      expect(hidden.text).toBe('');
    }
  });

  it('finds the campaign behind a cohort code in any case, as A20 shows it; an unknown code is 404', async () => {
    const { world, response, reference } = await campaignGet(
      clientPayload('ios_v14_campaigns_id__show.json').nonglobal_variant,
      (w) => `/v14/codes/${encodeURIComponent(w.code.toLowerCase())}/campaign`,
    );
    expect(response.body.campaign.applies_to_all_merchants).toBe(reference.response_body.campaign.applies_to_all_merchants);
    expect(response.body).toEqual((await api.call('GET', `/v14/campaigns/${world.value.campaign_id}`)).body);
    const unknown = await api.call('GET', `/v14/codes/${uniqueCode('NOPE')}/campaign`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('');
  });

  it('counts code lookups per client address: past the limit 429 with Retry-After, other addresses unaffected', async () => {
    const world = await campaignWorld();
    const from = { localAddress: '127.0.0.44' };
    for (let index = 0; index < CODE_LOOKUPS_PER_CLIENT.limit; index++) {
      const response = await politeCall(api, 'GET', `/v14/codes/${uniqueCode('GUESS')}/campaign`, from);
      expect(response.status).toBe(404);
    }
    const refused = await politeCall(api, 'GET', `/v14/codes/${world.code}/campaign`, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body[0].error.code).toBe('rate_limited');
    expect((await politeCall(api, 'GET', `/v14/codes/${world.code}/campaign`, { localAddress: '127.0.0.45' })).status).toBe(200);
  });

  it("answers the campaign's merchants as a bare array of ids; hidden or unknown campaigns are 404", async () => {
    const { world, response } = await campaignGet(
      clientPayload('docs_v14_campaigns_id_merchants__list.json'),
      (w) => `/v14/campaigns/${w.spend.campaign_id}/merchants`,
    );
    expect(response.body).toEqual([world.merchantId]);
    expect((await api.call('GET', `/v14/campaigns/${world.locked.campaign_id}/merchants`)).status).toBe(404);
    expect((await api.call('GET', '/v14/campaigns/999999999/merchants')).status).toBe(404);
  });
});

describe('A28 GET /v14/locations', () => {
  it('pages every location as a summary in change order; the last Link resumes with only what changed since; 204 when nothing did', async () => {
    const reference = clientPayload('docs_v14_locations__paging.json').pages[0];
    const { app } = await appFixture({ global: true });
    const merchant = await merchantFixture(app.app_id);
    const shown = await locationFixture(merchant.merchant.merchant_id, { categories: [4, 5] });
    const hidden = await locationFixture(merchant.merchant.merchant_id, { shown: false });

    const first = await api.call('GET', '/v14/locations');
    expect(first.status).toBe(200);
    const rows = first.body as { location: Record<string, unknown> }[];
    const visibleRow = rows.find((row) => row.location.id === shown.location_id)!;
    const hiddenRow = rows.find((row) => row.location.id === hidden.location_id)!;
    expectShapeOf(visibleRow, reference.response_body[0]);
    expect(visibleRow.location).toMatchObject({ categories: [4, 5], merchant_id: merchant.merchant.merchant_id, shown: true, name: 'Downtown' });
    expect(hiddenRow).toEqual({ location: { id: hidden.location_id, shown: false, updated_at: hidden.updated_at } });
    const link = nextLink(first.headers)!;
    expect(new URL(link).pathname).toBe('/v14/locations');
    const last = rows.at(-1)!.location;
    expect(new URL(link).searchParams.get('since')).toBe(last.updated_at);
    expect(new URL(link).searchParams.get('last_id')).toBe(String(last.id));

    const caughtUp = await api.call('GET', link);
    expect(caughtUp.status).toBe(204);
    const added = await locationFixture(merchant.merchant.merchant_id, { name: 'New one' });
    const resumed = await api.call('GET', link);
    expect(resumed.status).toBe(200);
    expect(resumed.body.map((row: { location: { id: number } }) => row.location.id)).toEqual([added.location_id]);
  });

  it('lists locations created before the change feed existed once an operator runs backfill-location-changes (idempotent)', async () => {
    const { app } = await appFixture({ global: true });
    const merchant = await merchantFixture(app.app_id);
    const older = [await locationFixture(merchant.merchant.merchant_id), await locationFixture(merchant.merchant.merchant_id, { shown: false })];
    // A table from before the feed: the locations are there, their feed rows are not.
    for (const location of older)
      await db().send(new DeleteCommand({ TableName: table(), Key: keys.locationChange(location.updated_at, location.location_id) }));
    const listedIds = async () => {
      const listed = await api.call('GET', '/v14/locations'); // 204 without a body when the feed is empty
      return listed.status === 204 ? [] : (listed.body as { location: { id: number } }[]).map((row) => row.location.id);
    };
    expect(await listedIds()).not.toContain(older[0]!.location_id);

    const backfill = await runAdmin(['backfill-location-changes'], api);
    expect(backfill.code, backfill.stderr).toBe(0);
    expect(JSON.parse(backfill.stdout).written).toBe(2); // only the two missing rows; the others were there
    expect(await listedIds()).toEqual(expect.arrayContaining(older.map((location) => location.location_id)));
    const again = await runAdmin(['backfill-location-changes'], api);
    expect(JSON.parse(again.stdout).written).toBe(0);
  });

  it('refuses a position that is not one (422 with the parameter named)', async () => {
    for (const [query, property] of [
      ['?since=yesterday', 'since'],
      ['?last_id=5', 'since'],
      ['?since=2020-01-01T00:00:00Z&last_id=x', 'last_id'],
    ] as const) {
      const response = await api.call('GET', `/v14/locations${query}`);
      expect(response.status, query).toBe(422);
      expect(response.body[0].error.property).toBe(property);
    }
  });
});

describe('A29 GET /v14/apps/:app_id/locations', () => {
  it('answers as the Ruby gem and iOS read it: rows with the iOS location fields, Link on the v14 path, 204 past the end', async () => {
    const reference = clientPayload('ios_v14_apps_app_id_locations__list.json');
    const { app } = await appFixture({ global: false, merchantIds: [] });
    const merchant = await merchantFixture(app.app_id);
    const { app: merchantApp } = await appFixture({ global: false, merchantIds: [merchant.merchant.merchant_id] });
    for (let index = 0; index < 11; index++) await locationFixture(merchant.merchant.merchant_id, { categories: [4], phone: '(617) 555-0100' });
    // The gem: no credential, a JSON body `{}` on the GET.
    const first = await api.call('GET', `/v14/apps/${merchantApp.app_id}/locations`, { body: {} });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(10);
    const row = first.body[0].location;
    expect(row).toMatchObject({
      categories: [4],
      category_names: ['Coffee & Tea'],
      name: 'Downtown',
      phone: '(617) 555-0100',
      visible: true,
      merchant_id: merchant.merchant.merchant_id,
    });
    for (const field of Object.keys(reference.response_body[0].location).filter((name) => !['latitude', 'longitude', 'delivery_menu_url'].includes(name))) {
      expect(row, field).toHaveProperty(field);
    }
    // The gem takes the first <...> of Link as the next page.
    const next = /<([^>]+)>/.exec(first.headers.get('link')!)![1]!;
    expect(new URL(next).pathname).toBe(`/v14/apps/${merchantApp.app_id}/locations`);
    const second = await api.call('GET', next, { body: {} });
    expect(second.status).toBe(200);
    expect(second.body).toHaveLength(1);
    // The last page links the page after it too (the gem follows it, then maps the 204's nil to []).
    const after = await api.call('GET', /<([^>]+)>/.exec(second.headers.get('link')!)![1]!, { body: {} });
    expect(after.status).toBe(204);
    expect(after.headers.get('link')).toBeNull();
    const empty = await api.call('GET', `/v14/apps/${app.app_id}/locations`, { body: {} });
    expect(empty.status).toBe(204);
    expect((await api.call('GET', '/v14/apps/999999999/locations')).status).toBe(404);
  });
});

describe('A30/A31 the user’s orders', () => {
  it('answers the Ruby gem (token user="…", body {}): an array of orders, and [] — never 204 — when there are none', async () => {
    const world = await orderWorld();
    const none = await api.call('GET', '/v15/users/orders', { authorization: `token user="${world.user.token}"`, body: {} });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    const placed = await placeOrder(api, world);
    const listed = await api.call('GET', '/v15/users/orders', { authorization: `token user="${world.user.token}"`, body: {} });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].order).toMatchObject({ uuid: placed.body.order.uuid, spend_amount: 1000 });
    expect(listed.body).toEqual((await api.call('GET', '/v15/apps/orders', { token: world.user.token })).body);
    const stranger = await userFixture(world.app.app_id);
    expect((await api.call('GET', '/v15/users/orders', { token: stranger.token })).body).toEqual([]);
  });

  it("answers Android's v14 app orders by page; another app's id is 404; 204 past the end", async () => {
    const world = await orderWorld();
    const placed = await placeOrder(api, world);
    const first = await api.call('GET', `/v14/apps/${world.app.app_id}/orders?page=1`, { token: world.user.token });
    expect(first.status).toBe(200);
    expect(first.body.map((row: { order: { uuid: string } }) => row.order.uuid)).toEqual([placed.body.order.uuid]);
    const past = await api.call('GET', `/v14/apps/${world.app.app_id}/orders?page=2`, { token: world.user.token });
    expect(past.status).toBe(204);
    const { app: other } = await appFixture();
    const elsewhere = await api.call('GET', `/v14/apps/${other.app_id}/orders?page=1`, { token: world.user.token });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).toBe('');
  });
});
