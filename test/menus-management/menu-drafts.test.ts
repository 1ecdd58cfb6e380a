/**
 * The management API's order-ahead menus (issue 38; docs/merchant-api.md, "Menus") through HTTP: every role on every
 * route, a menu drafted and published here answering the app routes exactly as the operators' `create-menu` does and
 * taking an order, a draft invisible to apps until published, the version guard (stale, racing publishes and edits:
 * one wins, the other 409 with nothing written), bad menus refused without a change, idempotency, discard, and the
 * audit entry of every change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MenuInput } from '#shared/domain/order-ahead/menu.ts';
import { SAMPLE_IDS, sampleMenu } from '#shared/domain/order-ahead/sample-menu.ts';
import type { StaffRole } from '#shared/routes.ts';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { locationFixture } from '../support/locations.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, pollUntilSettled, startOrderAheadTestApi, startPickup } from '../support/order-ahead.ts';
import { expectRoleAnswer, merchantRoles, roleTokens, type RoleProbe } from '../support/staff.ts';

const api = useTestApi(() => startOrderAheadTestApi());

/** What docs/merchant-api.md says each role may call (written out here, not read from the route table). */
const ALLOWED: Record<string, readonly StaffRole[]> = {
  'menu-drafts-show': ['owner', 'manager', 'staff'],
  'menu-drafts-update': ['owner', 'manager'],
  'menu-drafts-publish': ['owner', 'manager'],
  'menu-drafts-discard': ['owner', 'manager'],
};
const ROLES: readonly StaffRole[] = ['owner', 'manager', 'staff'];

/** An item the sample menu does not have, added by the merchant's draft. */
const COLD_BREW = { id: 9_001, name: 'Cold Brew', description: 'Steeped overnight.', price_amount: 425 };

/** The sample menu with the cold brew in its drinks and the water at a new price: the merchant's edit. */
function editedMenu(): MenuInput {
  const menu = sampleMenu();
  return {
    ...menu,
    categories: menu.categories.map((category) => ({
      ...category,
      items: [
        ...category.items.map((item) => (item.id === SAMPLE_IDS.water ? { ...item, price_amount: 175 } : item)),
        ...(category.items.some((item) => item.id === SAMPLE_IDS.water) ? [COLD_BREW] : []),
      ],
    })),
  };
}

type Place = Awaited<ReturnType<typeof orderAheadLocationFixture>>;
let place: Place;
let tokens: Awaited<ReturnType<typeof roleTokens>>;
let merchantId: number;

beforeAll(async () => {
  place = await orderAheadLocationFixture();
  ({ merchantId, ...tokens } = await merchantRoles(place));
});

/** Another location of the merchant with the sample menu published by the operators' create-menu. */
async function menuLocation(): Promise<number> {
  return (await orderAheadLocationFixture({ within: { app: place.app, merchant: place.merchant } })).location.location_id;
}

const draftPath = (locationId: number, action = '', merchant = merchantId) => `/v15/merchants/${merchant}/locations/${locationId}/menu_draft${action}`;
const readDraft = (locationId: number, token = tokens.owner) => api.call('GET', draftPath(locationId), { token });
const saveDraft = (locationId: number, version: number, menu: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
  api.call('PUT', draftPath(locationId), { token: options.token ?? tokens.owner, body: { menu_draft: { version, menu } }, headers: options.headers });
const publish = (locationId: number, version: number, token = tokens.owner) =>
  api.call('POST', draftPath(locationId, '/publish'), { token, body: { menu_draft: { version } } });
const discard = (locationId: number, version: number, token = tokens.owner) =>
  api.call('POST', draftPath(locationId, '/discard'), { token, body: { menu_draft: { version } } });
/** The menu apps read. */
const appMenu = (locationId: number) => api.call('GET', `/v15/order_ahead/locations/${locationId}/menu`);
const itemIdsOf = (menu: ApiResult) =>
  (menu.body.menu.categories as { category: { items: { item: { id: number; price_amount: number } }[] } }[]).flatMap((entry) =>
    entry.category.items.map((line) => line.item),
  );

/** A request of a route on fresh data, and its success status. */
async function probe(handler: string): Promise<RoleProbe> {
  const locationId = await menuLocation();
  if (handler === 'menu-drafts-show') return { method: 'GET', path: draftPath(locationId), success: 200 };
  if (handler === 'menu-drafts-update')
    return { method: 'PUT', path: draftPath(locationId), body: { menu_draft: { version: 0, menu: editedMenu() } }, success: 200 };
  const saved = await saveDraft(locationId, 0, editedMenu());
  expect(saved.status, saved.text).toBe(200);
  const action = handler === 'menu-drafts-publish' ? '/publish' : '/discard';
  return { method: 'POST', path: draftPath(locationId, action), body: { menu_draft: { version: saved.body.menu_draft.version } }, success: 200 };
}

describe('roles (docs/merchant-api.md, "Menus")', () => {
  for (const [handler, allowed] of Object.entries(ALLOWED)) {
    for (const role of ROLES) {
      it(`${handler}: ${role} ${allowed.includes(role) ? 'may' : 'may not'}`, async () => {
        const request = await probe(handler);
        const locationId = Number(/locations\/(\d+)/.exec(request.path)![1]);
        await expectRoleAnswer(api, request, {
          token: tokens[role],
          allowed: allowed.includes(role),
          unchanged: async () => (await readDraft(locationId)).text + (await appMenu(locationId)).text,
        });
      });
    }
    it(`${handler}: another merchant's owner is 401, the merchant's shared login 403 staff_login_required`, async () => {
      const request = await probe(handler);
      const other = await api.call(request.method, request.path, { token: tokens.otherOwner, body: request.body });
      expect(other.status, other.text).toBe(401);
      const shared = await api.call(request.method, request.path, { token: place.merchant.token, body: request.body });
      expect(shared.status, shared.text).toBe(403);
      expect(shared.body[0].error.code).toBe('staff_login_required');
    });
  }

  it("another merchant's location under the staff member's own merchant path: 404, nothing changed", async () => {
    const stranger = await orderAheadLocationFixture();
    const before = (await appMenu(stranger.location.location_id)).text;
    expect((await readDraft(stranger.location.location_id)).status).toBe(404);
    const saved = await saveDraft(stranger.location.location_id, 0, editedMenu());
    expect(saved.status, saved.text).toBe(404);
    expect((await appMenu(stranger.location.location_id)).text).toBe(before);
  });
});

describe('draft and publish', () => {
  it('a draft is not seen by apps until published; published, it answers as create-menu does, keeps its menu id and takes an order', async () => {
    const locationId = await menuLocation();
    const before = await appMenu(locationId);
    expect(before.status).toBe(200);
    const read = await readDraft(locationId, tokens.staff);
    expect(read.status, read.text).toBe(200);
    expect(read.body.menu_draft).toMatchObject({ state: 'published', version: 0, menu_id: before.body.menu.id });
    expect(read.body.menu_draft.menu.categories.map((category: { id: number }) => category.id)).toEqual(sampleMenu().categories.map((category) => category.id));

    const saved = await saveDraft(locationId, 0, editedMenu(), { token: tokens.manager });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.menu_draft).toMatchObject({ state: 'draft', version: 1, menu_id: before.body.menu.id });
    // Apps still read the menu as it was, by location and by id.
    expect((await appMenu(locationId)).text).toBe(before.text);
    expect(itemIdsOf(await api.call('GET', `/v15/order_ahead/menus/${before.body.menu.id}`))).not.toContainEqual(expect.objectContaining({ id: COLD_BREW.id }));

    const published = await publish(locationId, 1, tokens.manager);
    expect(published.status, published.text).toBe(200);
    expect(published.body.menu_draft).toMatchObject({ state: 'published', version: 2, menu_id: before.body.menu.id });
    const after = await appMenu(locationId);
    expect(after.body.menu.id).toBe(before.body.menu.id);
    expect(itemIdsOf(after)).toContainEqual(expect.objectContaining({ id: COLD_BREW.id, price_amount: COLD_BREW.price_amount }));
    expect(itemIdsOf(after)).toContainEqual(expect.objectContaining({ id: SAMPLE_IDS.water, price_amount: 175 }));
    expect((await api.call('GET', `/v15/order_ahead/menus/${before.body.menu.id}`)).body).toEqual(after.body);

    // Exactly what the operators' create-menu of the same menu answers (but for the ids and times of its own).
    const { location: operators, menu: created } = await orderAheadLocationFixture({
      within: { app: place.app, merchant: place.merchant },
      menu: editedMenu(),
    });
    const sameAs = (menu: ApiResult, ids: { menu: number; location: number }) =>
      JSON.parse(
        menu.text
          .replaceAll(`/menus/${ids.menu}/`, '/menus/MENU/')
          .replace(/"updated_at":"[^"]*"/g, '"updated_at":"T"')
          .replace(`"id":${ids.menu},`, '"id":"MENU",')
          .replace(`"location_id":${ids.location},`, '"location_id":"LOCATION",'),
      );
    expect(sameAs(after, { menu: before.body.menu.id, location: locationId })).toEqual(
      sameAs(await appMenu(operators.location_id), { menu: created.menu_id, location: operators.location_id }),
    );

    // An order of the new item validates against the published menu.
    const user = await orderAheadUserFixture(place.app.app_id);
    const started = await startPickup(api, user.token, locationId, COLD_BREW.id);
    expect(started.status, started.text).toBe(200);
    const { last } = await pollUntilSettled(api, started.body.order.order_url, user.token);
    expect(last.status, last.text).toBe(200);
    expect(last.body.order.items).toEqual([expect.objectContaining({ item: expect.objectContaining({ id: COLD_BREW.id }) })]);
  });

  it("a location's first menu through the API links the location to it", async () => {
    const bare = await locationFixture(merchantId, { fulfillment_types: ['in_store', 'pickup'] });
    const read = await readDraft(bare.location_id);
    expect(read.body.menu_draft).toMatchObject({ state: 'empty', version: 0, menu_id: null, menu: null });
    expect((await appMenu(bare.location_id)).status).toBe(404);
    const saved = await saveDraft(bare.location_id, 0, editedMenu());
    const published = await publish(bare.location_id, saved.body.menu_draft.version);
    expect(published.status, published.text).toBe(200);
    const menuId = published.body.menu_draft.menu_id;
    expect(menuId).toEqual(expect.any(Number));
    expect((await appMenu(bare.location_id)).body.menu.id).toBe(menuId);
    const location = await api.call('GET', `/v15/merchants/${merchantId}/locations/${bare.location_id}`, { token: tokens.owner });
    expect(location.body.location.order_ahead_menu_id).toBe(menuId);
  });

  it('discard: the draft is gone, the published menu is as it was; a second discard is 422 no_draft', async () => {
    const locationId = await menuLocation();
    const before = (await appMenu(locationId)).text;
    const saved = await saveDraft(locationId, 0, editedMenu());
    const discarded = await discard(locationId, saved.body.menu_draft.version);
    expect(discarded.status, discarded.text).toBe(200);
    expect(discarded.body.menu_draft).toMatchObject({ state: 'published', version: 2 });
    expect((await appMenu(locationId)).text).toBe(before);
    const again = await discard(locationId, 2);
    expect(again.status, again.text).toBe(422);
    expect(again.body[0].error.code).toBe('no_draft');
    expect((await publish(locationId, 2)).body[0].error.code).toBe('no_draft');
  });
});

describe('versions and races', () => {
  it('a save on a stale version is 409 menu_draft_changed with Retry-After, and changes nothing', async () => {
    const locationId = await menuLocation();
    await saveDraft(locationId, 0, editedMenu());
    const before = (await readDraft(locationId)).text;
    const stale = await saveDraft(locationId, 0, sampleMenu());
    expect(stale.status, stale.text).toBe(409);
    expect(stale.headers.get('retry-after')).toBe('1');
    expect(stale.body[0].error).toMatchObject({ object: 'menu_draft', code: 'menu_draft_changed' });
    expect((await readDraft(locationId)).text).toBe(before);
    // A version discarded is never reused: an edit made on the discarded draft is refused after a new one is saved.
    await discard(locationId, 1);
    await saveDraft(locationId, 2, sampleMenu());
    expect((await saveDraft(locationId, 1, editedMenu())).status).toBe(409);
  });

  it('a publish racing an edit of the same version: one wins, the other is 409, apps read a whole menu', async () => {
    const locationId = await menuLocation();
    const original = await appMenu(locationId);
    await saveDraft(locationId, 0, editedMenu());
    const [published, edited] = await Promise.all([publish(locationId, 1), saveDraft(locationId, 1, sampleMenu())]);
    expect([published.status, edited.status].sort()).toEqual([200, 409]);
    const conflictAnswer = published.status === 409 ? published : edited;
    expect(conflictAnswer.body[0].error.code).toBe('menu_draft_changed');
    expect(conflictAnswer.headers.get('retry-after')).toBe('1');
    const seen = itemIdsOf(await appMenu(locationId));
    if (published.status === 200) expect(seen).toContainEqual(expect.objectContaining({ id: COLD_BREW.id }));
    else expect(seen).toEqual(itemIdsOf(original));
  });

  it('two publishes of one draft: one publishes, the other is 409', async () => {
    const locationId = await menuLocation();
    await saveDraft(locationId, 0, editedMenu());
    const answers = await Promise.all([publish(locationId, 1), publish(locationId, 1, tokens.manager)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(itemIdsOf(await appMenu(locationId))).toContainEqual(expect.objectContaining({ id: COLD_BREW.id }));
  });

  it('the same Idempotency-Key answers the first answer again and saves once', async () => {
    const locationId = await menuLocation();
    const headers = { 'Idempotency-Key': `menu-draft-${locationId}` };
    const first = await saveDraft(locationId, 0, editedMenu(), { headers });
    const second = await saveDraft(locationId, 0, editedMenu(), { headers });
    expect(first.status, first.text).toBe(200);
    expect(second.text).toBe(first.text);
    expect((await readDraft(locationId)).body.menu_draft.version).toBe(1);
  });
});

describe('bad menus', () => {
  const refused: [string, () => unknown, string][] = [
    [
      'an upsell of an item not on the menu',
      () => ({ ...editedMenu(), upsells: [{ id: 77, prompt: 'More?', item_ids: [123_456] }] }),
      'upsell names unknown item',
    ],
    [
      'an item id used twice',
      () => ({ ...editedMenu(), categories: [...editedMenu().categories, { id: 99, name: 'Again', items: [COLD_BREW] }] }),
      'is used twice',
    ],
    [
      'a category id used twice',
      () => ({ ...editedMenu(), categories: [...editedMenu().categories, { id: 1, name: 'Again', items: [{ ...COLD_BREW, id: 9_002 }] }] }),
      'is used twice',
    ],
    [
      'more categories than a menu holds',
      () => ({
        categories: Array.from({ length: 51 }, (_, index) => ({
          id: index + 1,
          name: `C${index}`,
          items: [{ id: 1_000 + index, name: 'I', price_amount: 1 }],
        })),
      }),
      'categories',
    ],
    [
      'a maximum below the minimum of choices',
      () => ({
        categories: [
          {
            id: 1,
            name: 'C',
            items: [{ ...COLD_BREW, option_groups: [{ id: 5, name: 'G', minimum_choices: 2, maximum_choices: 1, options: [{ id: 6, name: 'O' }] }] }],
          },
        ],
      }),
      'maximum_choices',
    ],
  ];
  for (const [name, menu, expected] of refused) {
    it(`${name}: 422, nothing saved`, async () => {
      const locationId = await menuLocation();
      const before = (await readDraft(locationId)).text;
      const answer = await saveDraft(locationId, 0, menu());
      expect(answer.status, answer.text).toBe(422);
      expect(answer.text).toContain(expected);
      expect((await readDraft(locationId)).text).toBe(before);
    });
  }
});

describe('audit log', () => {
  it('a save, a publish and a discard each leave their entry, with the staff member who made it', async () => {
    const locationId = await menuLocation();
    await saveDraft(locationId, 0, editedMenu(), { token: tokens.manager });
    await publish(locationId, 1, tokens.owner);
    await saveDraft(locationId, 2, sampleMenu(), { token: tokens.manager });
    await discard(locationId, 3, tokens.manager);
    const entries = async (action: string) => {
      const listed = await api.call('GET', `/v15/merchants/${merchantId}/audit_log?action=${action}`, { token: tokens.owner });
      expect(listed.status, listed.text).toBe(200);
      return (listed.body as { audit_entry: Record<string, any> }[]).map((item) => item.audit_entry);
    };
    const menuId = (await readDraft(locationId)).body.menu_draft.menu_id;
    const items = editedMenu().categories.reduce((sum, category) => sum + category.items.length, 0);
    const ofMenu = (entry: Record<string, any>) => entry.object.type === 'menu' && entry.object.id === String(menuId);
    const published = (await entries('menu.published')).filter(ofMenu);
    expect(published).toEqual([expect.objectContaining({ actor: { kind: 'staff', staff_id: tokens.ownerId, role: 'owner' } })]);
    expect(published[0]!.after).toMatchObject({ menu_id: menuId, items });
    const saves = (await entries('menu.draft_saved')).filter(ofMenu);
    expect(saves.map((entry) => entry.actor.staff_id)).toEqual([tokens.managerId, tokens.managerId]);
    const discards = (await entries('menu.draft_discarded')).filter(ofMenu);
    expect(discards).toHaveLength(1);
  });
});
