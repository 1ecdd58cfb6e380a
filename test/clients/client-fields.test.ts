/**
 * Fields real clients read and choked on (issue 34 points 6, 7, 11 and 13), through HTTP with the clients' own
 * bodies (test/fixtures/client-payloads): the order-ahead menu links iOS follows as given, the merchant's tip
 * preference the C# SDK and iOS read, order ids the C# SDK reads as 32-bit ints, and the birthday the C# SDK's
 * User parses. (Point 12, a remote check's `pending_order`, is test/pos/remote-checks.test.ts.)
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';
import { setMerchantTipPreference } from '#shared/domain/merchants/locations.ts';
import { createMenuForLocation } from '#shared/domain/order-ahead/menu.ts';
import { sampleMenu } from '#shared/domain/order-ahead/sample-menu.ts';
import { TIP_PREFERENCES } from '#shared/schemas/vocabularies.ts';
import { runAdmin } from '../support/admin.ts';
import { useTestApi } from '../support/api.ts';
import { CLIENT_ID_LIMIT, oversizedIds } from '../support/client-sized-ids.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { V14_LOCATION_OPTIONAL_LINKS, locationFixture } from '../support/locations.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';

const api = useTestApi();
let app: Awaited<ReturnType<typeof appFixture>>;

beforeAll(async () => {
  app = await appFixture({ global: true });
});

/** Every `*_url` field of an answer's location: what a client follows as given. */
function urlFields(location: Record<string, unknown>): [string, unknown][] {
  return Object.entries(location).filter(([name]) => name.endsWith('_url'));
}

describe('issue 34.6: menu links are absolute URLs or null, never ""', () => {
  const iosV14 = clientPayload('ios_v14_locations_id__show.json').response_body;

  it('a location with pickup, delivery and a published menu links it on every location answer iOS reads; following the link answers the menu', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id, {
      fulfillment_types: ['in_store', 'pickup', 'delivery'],
      delivery_radius_m: 3000,
      menu_url: 'https://example.com/our-menu',
    });
    const menu = await createMenuForLocation(location.location_id, sampleMenu());
    const menuLink = `${api.baseUrl}/v15/order_ahead/menus/${menu.menu_id}`;

    const v14 = await api.call('GET', `/v14/locations/${location.location_id}`);
    expect(v14.status, v14.text).toBe(200);
    // The iOS v14 fixture has a string in every URL field: ours are strings too where there is something to link.
    expectShapeOf(v14.body, iosV14, {
      nullable: V14_LOCATION_OPTIONAL_LINKS,
    });
    const v15 = await api.call('GET', `/v15/locations/${location.location_id}`);
    const merchantList = await api.call('GET', `/v15/merchants/${merchant.merchant.merchant_id}/locations`);
    const appList = await api.call('GET', `/v15/apps/${app.app.app_id}/locations?fulfillment_types=pickup&lat=42.35&lng=-71.05`);
    const listed = appList.body.find((entry: any) => entry.location.id === location.location_id);
    expect(listed, appList.text).toBeDefined();

    for (const answer of [v14.body.location, v15.body.location, merchantList.body[0].location]) {
      expect(answer).toMatchObject({ pickup_menu_url: menuLink, delivery_menu_url: menuLink, menu_url: 'https://example.com/our-menu' });
    }
    expect(listed.location.pickup_menu_url).toBe(menuLink);

    // iOS follows pickup_menu_url as given and reads the menu of this location.
    const followed = await api.call('GET', v15.body.location.pickup_menu_url);
    expect(followed.status, followed.text).toBe(200);
    expect(followed.body.menu.location_id).toBe(location.location_id);
  });

  it('a location without a menu, or without that way of ordering, answers null; every URL field is absolute or null', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    const noMenu = await locationFixture(merchant.merchant.merchant_id, { fulfillment_types: ['in_store', 'pickup', 'delivery'], delivery_radius_m: 3000 });
    const pickupOnly = await locationFixture(merchant.merchant.merchant_id, { fulfillment_types: ['pickup'] });
    await createMenuForLocation(pickupOnly.location_id, sampleMenu());

    // What a location may link is absolute http(s): a script or relative link is refused when the location is made.
    for (const link of ['javascript:alert(1)', '/menu', '', 'ftp://example.com/menu']) {
      await expect(locationFixture(merchant.merchant.merchant_id, { menu_url: link }), link).rejects.toThrow(/menu_url/);
    }

    for (const version of ['v14', 'v15']) {
      const none = await api.call('GET', `/${version}/locations/${noMenu.location_id}`);
      expect(none.status, none.text).toBe(200);
      expect(none.body.location).toMatchObject({ pickup_menu_url: null, delivery_menu_url: null });
      const pickup = await api.call('GET', `/${version}/locations/${pickupOnly.location_id}`);
      expect(pickup.body.location.pickup_menu_url).toMatch(new RegExp(`^${api.baseUrl}/v15/order_ahead/menus/\\d+$`));
      expect(pickup.body.location.delivery_menu_url).toBeNull();
      for (const answer of [none.body.location, pickup.body.location]) {
        for (const [name, value] of urlFields(answer))
          expect(value === null || /^https?:\/\/\S+$/.test(value as string), `${version} ${name}: ${String(value)}`).toBe(true);
      }
    }
  });

  it('a menu published before locations linked menus is linked by `npm run admin -- link-location-menus`', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id, { fulfillment_types: ['pickup'] });
    const menu = await createMenuForLocation(location.location_id, sampleMenu());
    // As such a location is stored: no link at all.
    await db().send(new UpdateCommand({ TableName: table(), Key: keys.location(location.location_id), UpdateExpression: 'REMOVE order_ahead_menu_id' }));
    expect((await api.call('GET', `/v15/locations/${location.location_id}`)).body.location.pickup_menu_url).toBeNull();
    const linked = await runAdmin(['link-location-menus'], api);
    expect(linked.code, linked.stderr).toBe(0);
    expect((await api.call('GET', `/v15/locations/${location.location_id}`)).body.location.pickup_menu_url).toBe(
      `${api.baseUrl}/v15/order_ahead/menus/${menu.menu_id}`,
    );
  });

  it('publishing a menu moves the location in the change feed (GET /v14/locations), so apps that keep copies fetch it again', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id, { fulfillment_types: ['pickup'] });
    // Made a while ago: its feed row is keyed by that time.
    const longAgo = '2020-01-01T00:00:00+00:00';
    const stored = (await db().send(new GetCommand({ TableName: table(), Key: keys.location(location.location_id) }))).Item!;
    await db().send(new DeleteCommand({ TableName: table(), Key: keys.locationChange(location.updated_at, location.location_id) }));
    await db().send(new PutCommand({ TableName: table(), Item: { ...stored, updated_at: longAgo } }));
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...keys.locationChange(longAgo, location.location_id),
          entity: 'LocationChange',
          location_id: location.location_id,
          shown: true,
          updated_at: longAgo,
          categories: [],
          latitude: 42.35,
          longitude: -71.05,
          merchant_id: merchant.merchant.merchant_id,
          merchant_name: merchant.merchant.name,
          name: 'Downtown',
        },
      }),
    );

    await createMenuForLocation(location.location_id, sampleMenu());
    const shown = await api.call('GET', `/v15/locations/${location.location_id}`);
    expect(shown.body.location.updated_at > longAgo).toBe(true);
    expect(shown.body.location.pickup_menu_url).toMatch(/^http/);
    // One feed row, at the new time (the old one is gone).
    const old = await db().send(new GetCommand({ TableName: table(), Key: keys.locationChange(longAgo, location.location_id) }));
    expect(old.Item).toBeUndefined();
    const moved = await db().send(new GetCommand({ TableName: table(), Key: keys.locationChange(shown.body.location.updated_at, location.location_id) }));
    expect(moved.Item).toMatchObject({ location_id: location.location_id, updated_at: shown.body.location.updated_at });
  });
});

describe("issue 34.7: the merchant's tip preference", () => {
  const managed = clientPayload('csharp_v15_managed_locations__list.json');
  const csharpLocations = clientPayload('csharp_v15_merchants_merchant_id_locations__list.json');
  /** Every value the clients' payload files show. */
  const clientValues = new Set([
    ...managed.response_body.map((entry: any) => entry.location.tip_preference),
    ...csharpLocations.response_body.map((entry: any) => entry.location.merchant_tip_preference),
    clientPayload('ios_v14_locations_id__show.json').response_body.location.merchant_tip_preference,
  ]);

  /** What each view a client reads answers for the merchant's location. */
  async function preferencesShown(merchant: Awaited<ReturnType<typeof merchantFixture>>, locationId: number) {
    const csharpManaged = await api.call('GET', '/v15/managed_locations', { authorization: `token merchant="${merchant.token}"` });
    expect(csharpManaged.status, csharpManaged.text).toBe(200);
    expectShapeOf(csharpManaged.body, managed.response_body);
    const v14List = await api.call('GET', `/v14/merchants/${merchant.merchant.merchant_id}/locations`, { token: merchant.token });
    expect(v14List.status, v14List.text).toBe(200);
    const v15Details = await api.call('GET', `/v15/locations/${locationId}`, { token: merchant.token });
    const v14Details = await api.call('GET', `/v14/locations/${locationId}`);
    const v15List = await api.call('GET', `/v15/merchants/${merchant.merchant.merchant_id}/locations`);
    return [
      csharpManaged.body.find((entry: any) => entry.location.id === locationId).location.tip_preference,
      v14List.body.find((entry: any) => entry.location.id === locationId).location.merchant_tip_preference,
      v15Details.body.location.merchant_tip_preference,
      v14Details.body.location.merchant_tip_preference,
      v15List.body.find((entry: any) => entry.location.id === locationId).location.merchant_tip_preference,
    ];
  }

  it("knows exactly the clients' values; a new merchant has LevelUp's default, no preference", async () => {
    expect([...clientValues].sort()).toEqual([...TIP_PREFERENCES].sort());
    const merchant = await merchantFixture(app.app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id);
    expect(await preferencesShown(merchant, location.location_id)).toEqual(Array(5).fill('no preference'));
  });

  it('is a per-merchant setting: each value reaches every view of every location of that merchant, and no other merchant', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    const other = await merchantFixture(app.app.app_id);
    const locations = [
      await locationFixture(merchant.merchant.merchant_id),
      await locationFixture(merchant.merchant.merchant_id, { shown: false, name: 'Back office' }),
    ];
    const otherLocation = await locationFixture(other.merchant.merchant_id);
    for (const preference of ['expected', 'unwanted', 'no preference'] as const) {
      await setMerchantTipPreference(merchant.merchant.merchant_id, preference);
      expect(await preferencesShown(merchant, locations[0]!.location_id)).toEqual(Array(5).fill(preference));
      // A hidden location is on the POS's lists, with the same preference.
      const hidden = await api.call('GET', '/v15/managed_locations', { token: merchant.token });
      expect(hidden.body.find((entry: any) => entry.location.id === locations[1]!.location_id).location.tip_preference).toBe(preference);
    }
    await setMerchantTipPreference(merchant.merchant.merchant_id, 'unwanted');
    expect(await preferencesShown(other, otherLocation.location_id)).toEqual(Array(5).fill('no preference'));
    // A location made after the change copies the merchant's setting.
    const later = await locationFixture(merchant.merchant.merchant_id);
    expect(await preferencesShown(merchant, later.location_id)).toEqual(Array(5).fill('unwanted'));
  });

  it('operators set it with `npm run admin -- set-tip-preference`, which refuses a value no client knows', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id);
    const set = await runAdmin(['set-tip-preference', '--merchant-id', String(merchant.merchant.merchant_id), '--tip-preference', 'expected'], api);
    expect(set.code, set.stderr).toBe(0);
    expect(await preferencesShown(merchant, location.location_id)).toEqual(Array(5).fill('expected'));
    const refused = await runAdmin(['set-tip-preference', '--merchant-id', String(merchant.merchant.merchant_id), '--tip-preference', 'percent'], api);
    expect(refused.code).toBe(2);
    expect(await preferencesShown(merchant, location.location_id)).toEqual(Array(5).fill('expected'));
  });

  it('a merchant stored before the setting (`percent`, which no client knows) answers the default', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id);
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.location(location.location_id),
        UpdateExpression: 'SET merchant_tip_preference = :old',
        ExpressionAttributeValues: { ':old': 'percent' },
      }),
    );
    expect(await preferencesShown(merchant, location.location_id)).toEqual(Array(5).fill('no preference'));
  });
});

describe('issue 34.11: integer ids the C# SDK can read (below 2^31)', () => {
  const orderDetail = clientPayload('csharp_v15_merchants_merchant_id_orders_uuid__show.json');
  const proposeBody = clientPayload('csharp_v15_proposed_orders__create.json').request_body;
  const completeBody = clientPayload('csharp_v15_completed_orders__create.json').request_body;

  /** The C# SDK's proposal and completion, at the world's location with its customer's code. */
  async function csharpOrder(world: OrderWorld): Promise<string> {
    const own = { location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data };
    const proposed = await api.call('POST', '/v15/proposed_orders', {
      authorization: `token merchant="${world.merchant.token}"`,
      body: { proposed_order: { ...proposeBody.proposed_order, ...own } },
    });
    expect(proposed.status, proposed.text).toBe(200);
    const completed = await api.call('POST', '/v15/completed_orders', {
      authorization: `token merchant="${world.merchant.token}"`,
      body: {
        completed_order: { ...completeBody.completed_order, ...own, applied_discount_amount: 0, proposed_order_uuid: proposed.body.proposed_order.uuid },
      },
    });
    expect(completed.status, completed.text).toBe(200);
    return completed.body.order.uuid;
  }

  function detail(world: OrderWorld, uuid: string) {
    return api.call('GET', `/v15/merchants/${world.merchant.merchant.merchant_id}/orders/${uuid}`, { authorization: `token ${world.merchant.token}` });
  }

  it("the merchant-facing order detail answers an id below 2^31, the same on every read and on the customer's detail; orders settled at once get distinct ids", async () => {
    const worlds = await Promise.all([orderWorld(), orderWorld(), orderWorld(), orderWorld()]);
    const uuids = await Promise.all(worlds.map(csharpOrder));
    const ids: number[] = [];
    for (const [index, world] of worlds.entries()) {
      const first = await detail(world, uuids[index]!);
      expect(first.status, first.text).toBe(200);
      // The C# SDK's order carries sku, category and upc per item; the SDK's own proposal leaves some out (null here).
      expectShapeOf(first.body, orderDetail.response_body, {
        nullable: ['$.order.items[].item.upc', '$.order.items[].item.sku', '$.order.items[].item.category', '$.order.items[].item.description'],
      });
      const id = first.body.order.id;
      expect(Number.isInteger(id) && id > 0 && id < CLIENT_ID_LIMIT, String(id)).toBe(true);
      expect((await detail(world, uuids[index]!)).body.order.id).toBe(id);
      const customer = await api.call('GET', `/v15/orders/${uuids[index]}`, { token: world.user.token });
      expect(customer.body.order.id).toBe(id);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Drawing the id beside the settlement's reads changed nothing of the money.
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('an order stored before ids were drawn answers a stable derived id, also below 2^31', async () => {
    const world = await orderWorld();
    const uuid = await csharpOrder(world);
    await db().send(new UpdateCommand({ TableName: table(), Key: keys.order(uuid), UpdateExpression: 'REMOVE integer_id' }));
    const first = await detail(world, uuid);
    expect(first.status, first.text).toBe(200);
    const id = first.body.order.id;
    expect(id).toBeGreaterThanOrEqual(2 ** 30);
    expect(id).toBeLessThan(CLIENT_ID_LIMIT);
    expect((await detail(world, uuid)).body.order.id).toBe(id);
  });

  it("the suite's HTTP client fails an answer with a larger id (so every test enforces the limit), but not a menu option's 64-bit POS id", () => {
    expect(oversizedIds({ order: { id: 24932996666442, location_id: 5 } })).toEqual(['$.order.id: 24932996666442']);
    expect(oversizedIds([{ location: { merchant_id: CLIENT_ID_LIMIT } }])).toEqual(['$[0].location.merchant_id: 2147483648']);
    expect(oversizedIds({ order: { campaign_ids: [1, CLIENT_ID_LIMIT] } })).toEqual(['$.order.campaign_ids[1]: 2147483648']);
    expect(oversizedIds({ order: { id: CLIENT_ID_LIMIT - 1 } })).toEqual([]);
    expect(
      oversizedIds({ menu: { id: 3, items: [{ item: { id: 101, options: [{ option: { id: 4_294_967_307 } }], option_ids: [4_294_967_307] } }] } }),
    ).toEqual([]);
  });
});

describe('issue 34.13: born_at in a form the SDKs parse', () => {
  /** The C# SDK's User: `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-ddTHH:mm:sszzz` (zzz = `+00:00`), nothing else. */
  const CSHARP_FORMS = [/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/];

  /** The calendar day a client in `timeZone` shows for the answered instant. */
  function dayIn(answer: string, timeZone: string): string {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(answer));
  }

  it('the birthday the C# SDK sets (PUT /v14/users/:id) reads back parseable, the same day in US and Asian time zones', async () => {
    const user = await userFixture(app.app.app_id);
    const csharp = clientPayload('csharp_v14_users_id__update.json');
    const path = `/v14/users/${user.user.user_id}`;
    const set = await api.call('PUT', path, { token: user.token, body: { user: { ...csharp.request_body_template.user, born_at: '1990-05-17' } } });
    expect(set.status, set.text).toBe(200);
    for (const answer of [
      set.body.user.born_at,
      (await api.call('GET', path, { token: user.token })).body.user.born_at,
      (await api.call('GET', '/v15/users', { token: user.token })).body.user.born_at,
    ]) {
      expect(
        CSHARP_FORMS.some((form) => form.test(answer)),
        answer,
      ).toBe(true);
      for (const zone of ['America/Los_Angeles', 'America/New_York', 'Pacific/Honolulu', 'UTC', 'Europe/Berlin', 'Asia/Tokyo'])
        expect(dayIn(answer, zone), zone).toBe('1990-05-17');
    }
    // Sent back as read (a client saving the profile unchanged), the date stays.
    const again = await api.call('PUT', path, { token: user.token, body: { user: { born_at: set.body.user.born_at } } });
    expect(again.body.user.born_at).toBe(set.body.user.born_at);
  });

  it("iOS's sign-up birthday (`1980-01-01T00:00:00-05:00`) reads back as an ISO 8601 datetime of that day", async () => {
    const ios = clientPayload('ios_v15_apps_users__create.json');
    const created = await api.call('POST', '/v15/apps/users', {
      body: {
        ...ios.request_body_template,
        api_key: app.apiKey,
        user: { email: `ios-${Date.now()}@example.com`, first_name: 'John', last_name: 'Doe', born_at: '1980-01-01T00:00:00-05:00' },
        permission_keynames: ['read_user_basic_info'],
      },
    });
    expect(created.status, created.text).toBe(200);
    const shown = await api.call('GET', '/v15/users', { token: created.body.access_token.token });
    const bornAt = shown.body.user.born_at;
    expect(CSHARP_FORMS[1]!.test(bornAt), bornAt).toBe(true);
    expect(Number.isNaN(Date.parse(bornAt))).toBe(false);
    expect(dayIn(bornAt, 'America/New_York')).toBe('1980-01-01');
  });
});
