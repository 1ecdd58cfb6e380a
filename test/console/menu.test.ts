/**
 * The console's menu editor in headless Chromium against the local stack (docs/console.md, "Menu"; issue 39): an
 * owner signs in, edits a location's published menu (an item renamed and repriced, an item added and moved up by
 * keyboard), saves the draft, which apps do not see, and publishes it: the app's `GET
 * /v15/order_ahead/locations/{location_id}/menu` then answers exactly the edited menu, and everything the editor does
 * not show (settings, upsells, option groups, windows) is as it was. An empty location's draft is refused in the
 * form until it has a category, then saved and discarded; a save over someone else's change is 409 and offers the
 * reload; a staff member reads the menu and is told editing is for owners and managers (the API answers 403).
 * Zero axe-core violations at 1280 px and 390 px on the empty draft, the menu with items, and after publish.
 * `CONSOLE_SCREENSHOTS=1` writes menu.png to docs/console/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMenu } from '#shared/domain/order-ahead/sample-menu.ts';
import { useTestApi } from '../support/api.ts';
import { launchChromium } from '../support/chromium.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { staffFixture } from '../support/staff.ts';
import { axeViolations, CONSOLE_PASSWORD, PAGE_TEST, scrollWidth, shot, signedInPage } from './browser.ts';

const api = useTestApi();
/**
 * The edit's story: a sign-in, edits, save, publish, and axe-core at two widths three times over the editor of a
 * whole menu (about a hundred fields: each run takes seconds on a busy machine), so twice a page test's time.
 */
const EDITOR_TEST = { timeout: 2 * PAGE_TEST.timeout };

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let merchantId: number;
let owner: { email: string; token: string };
let cashier: { email: string; token: string };

const draftPath = (locationId: number, action = '') => `/v15/merchants/${merchantId}/locations/${locationId}/menu_draft${action}`;
/** The menu apps read: public, no credential (docs/order-ahead.md, "Endpoints"). */
const appMenu = (locationId: number) => api.call('GET', `/v15/order_ahead/locations/${locationId}/menu`);

/** A location of the merchant with the sample menu published through the management API. */
async function publishedLocation(name: string): Promise<number> {
  const location = await locationFixture(merchantId, { name });
  const saved = await api.call('PUT', draftPath(location.location_id), { token: owner.token, body: { menu_draft: { version: 0, menu: sampleMenu() } } });
  expect(saved.status, saved.text).toBe(200);
  const published = await api.call('POST', draftPath(location.location_id, '/publish'), {
    token: owner.token,
    body: { menu_draft: { version: saved.body.menu_draft.version } },
  });
  expect(published.status, published.text).toBe(200);
  return location.location_id;
}

beforeAll(async () => {
  const [{ apiKey, app }, launched] = await Promise.all([appFixture(), launchChromium('console-menu')]);
  chromium = launched;
  // The console's config.json names the app staff sign in through (scripts/local/console-files.ts).
  process.env.CONSOLE_API_KEY = apiKey;
  const { merchant } = await merchantFixture(app.app_id);
  merchantId = merchant.merchant_id;
  const ownerMember = await staffFixture(app.app_id, merchantId, 'owner', { password: CONSOLE_PASSWORD.owner });
  owner = { email: ownerMember.email, token: ownerMember.token };
  const staffMember = await staffFixture(app.app_id, merchantId, 'staff', { password: CONSOLE_PASSWORD.staff });
  cashier = { email: staffMember.email, token: staffMember.token };
});

afterAll(async () => {
  delete process.env.CONSOLE_API_KEY;
  await chromium?.close();
});

/** Opens the console's menu page of a location, signs in there and waits for the page's heading. */
async function signedInAt(width: number, locationId: number, who: { email: string; password: string }) {
  return signedInPage(chromium.browser, width, `${api.baseUrl}/console/menu?location=${locationId}`, who, 'Menu');
}

/** Zero axe-core violations at 1280 px and at 390 px (where nothing scrolls sideways), back at 1280 px after. */
async function accessibleAtBothWidths(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 900 });
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const stateHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });
/** An item's fields: the group its heading (its name) labels. */
const itemGroup = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

/** The app's menu as the test compares it: each category's name and its items in order. */
const appCategories = (body: any) =>
  body.menu.categories.map(({ category }: any) => ({
    id: category.id,
    name: category.name,
    description: category.description,
    items: category.items.map(({ item }: any) => ({ id: item.id, name: item.name, description: item.description, price_amount: item.price_amount })),
  }));
const draftCategories = (menu: any) =>
  menu.categories.map((category: any) => ({
    id: category.id,
    name: category.name,
    description: category.description,
    items: category.items.map((item: any) => ({ id: item.id, name: item.name, description: item.description, price_amount: item.price_amount })),
  }));

describe("the console's menu editor", () => {
  it('an owner edits a published menu, saves the draft apps do not see, publishes it, and the app menu is exactly the edit', EDITOR_TEST, async () => {
    const locationId = await publishedLocation('Harbour Street');
    const before = await api.call('GET', draftPath(locationId), { token: owner.token });
    expect(before.body.menu_draft.state).toBe('published');
    const appBefore = await appMenu(locationId);
    expect(appBefore.status, appBefore.text).toBe(200);

    const { page, problems } = await signedInAt(1280, locationId, { email: owner.email, password: CONSOLE_PASSWORD.owner });
    expect(await page.title()).toBe('Menu · Merchant console');
    await stateHeading(page, 'Published').waitFor();
    expect(await page.getByRole('region', { name: 'Category 3: Drinks and sweets' }).getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Water',
      'Cookie',
    ]);
    expect(await itemGroup(page, 'Water').getByLabel('Price in dollars', { exact: true }).inputValue()).toBe('1.49');
    await accessibleAtBothWidths(page);

    // The price first: the item's group is named by its name, which changes next.
    await itemGroup(page, 'Water').getByLabel('Price in dollars', { exact: true }).fill('2.25');
    await itemGroup(page, 'Water').getByLabel('Item name', { exact: true }).fill('Sparkling Water');
    // A new item: its name field has the focus, so typing names it.
    await page.getByRole('button', { name: 'Add an item to Drinks and sweets' }).click();
    await page.keyboard.type('Cold Brew');
    await itemGroup(page, 'Cold Brew').getByLabel('Price in dollars', { exact: true }).fill('4.25');
    await itemGroup(page, 'Cold Brew').getByLabel('Item description (optional)').fill('Steeped overnight.');
    // Reordered by keyboard: the focus stays on the moved item's button, and the move is said.
    await page.getByRole('button', { name: 'Move up item Cold Brew' }).press('Enter');
    await page.getByText('Cold Brew moved to position 2 of 3 in Drinks and sweets.').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Move up item Cold Brew');
    expect(await page.getByRole('region', { name: 'Category 3: Drinks and sweets' }).getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Sparkling Water',
      'Cold Brew',
      'Cookie',
    ]);

    await page.getByRole('button', { name: 'Save draft' }).click();
    const savedStatus = page.getByRole('status').filter({ hasText: 'Draft saved.' });
    await savedStatus.waitFor();
    expect(await savedStatus.evaluate((element) => element === (globalThis as any).document.activeElement)).toBe(true);
    await stateHeading(page, 'Draft, not published yet').waitFor();
    await accessibleAtBothWidths(page);
    await shot(page, 'menu');

    // The menu as edited: what was read, the water renamed and repriced, the cold brew (the next item id) second.
    const expected = structuredClone(before.body.menu_draft.menu);
    const drinks = expected.categories.find((category: any) => category.name === 'Drinks and sweets');
    const [water, cookie] = drinks.items;
    Object.assign(water, { name: 'Sparkling Water', price_amount: 225 });
    const coldBrew = {
      id: 106,
      name: 'Cold Brew',
      description: 'Steeped overnight.',
      price_amount: 425,
      image_url: null,
      metadata: {},
      allows_special_instructions: null,
      special_instructions_character_limit: null,
      nutrition: {},
      sku: null,
      upc: null,
      available: true,
      availability_windows: [],
      option_groups: [],
    };
    drinks.items = [water, coldBrew, cookie];
    const draft = await api.call('GET', draftPath(locationId), { token: owner.token });
    expect(draft.body.menu_draft).toMatchObject({ state: 'draft', version: before.body.menu_draft.version + 1 });
    expect(draft.body.menu_draft.menu).toEqual(expected);
    // Apps do not see a draft: the menu they read is the one published before, byte for byte.
    expect((await appMenu(locationId)).text).toBe(appBefore.text);

    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByText('Publish this draft at Harbour Street?').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Yes, publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Published. Apps now show this menu at Harbour Street.' }).waitFor();
    await stateHeading(page, 'Published').waitFor();
    await accessibleAtBothWidths(page);
    expect(problems).toEqual([]);
    await page.close();

    // The app's menu is exactly the edit; the draft route shows it published, everything else as it was.
    const after = await appMenu(locationId);
    expect(after.status, after.text).toBe(200);
    expect(appCategories(after.body)).toEqual(draftCategories(expected));
    expect(after.body.menu.id).toBe(appBefore.body.menu.id);
    const published = await api.call('GET', draftPath(locationId), { token: owner.token });
    expect(published.body.menu_draft).toMatchObject({ state: 'published', version: before.body.menu_draft.version + 2 });
    expect(published.body.menu_draft.menu).toEqual(expected);
  });

  it('an empty location: the form asks for a category before saving; the draft is saved, then discarded', PAGE_TEST, async () => {
    const location = await locationFixture(merchantId, { name: 'Quay Side' });
    const locationId = location.location_id;
    const { page, problems } = await signedInAt(1280, locationId, { email: owner.email, password: CONSOLE_PASSWORD.owner });
    await stateHeading(page, 'No menu yet').waitFor();
    await accessibleAtBothWidths(page);

    // Refused in the form, before any request: the summary has the focus and names what to do.
    await page.getByRole('button', { name: 'Save draft' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'in this menu before it can be saved' });
    await summary.waitFor();
    expect(await summary.getByRole('listitem').allTextContents()).toEqual(['Add at least one category: a menu needs one.']);
    expect(await summary.evaluate((element) => element === (globalThis as any).document.activeElement)).toBe(true);
    expect((await api.call('GET', draftPath(locationId), { token: owner.token })).body.menu_draft).toMatchObject({ state: 'empty', version: 0 });

    await page.getByRole('button', { name: 'Add a category' }).click();
    await page.keyboard.type('Pastries');
    // The new category's one item: its price is required and bounded in the form too.
    await page.getByLabel('Item name', { exact: true }).fill('Croissant');
    await page.getByLabel('Price in dollars', { exact: true }).fill('100000.01');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await summary.getByText('Item “Croissant”: a price is at most $100,000.00.').waitFor();
    expect(await page.getByLabel('Price in dollars', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await summary.getByRole('button', { name: 'Item “Croissant”: a price is at most $100,000.00.' }).click();
    expect(await page.getByLabel('Price in dollars', { exact: true }).evaluate((element) => element === (globalThis as any).document.activeElement)).toBe(true);
    await page.getByLabel('Price in dollars', { exact: true }).fill('3.25');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    const saved = await api.call('GET', draftPath(locationId), { token: owner.token });
    expect(saved.body.menu_draft.state).toBe('draft');
    expect(draftCategories(saved.body.menu_draft.menu)).toEqual([
      { id: 1, name: 'Pastries', description: null, items: [{ id: 1, name: 'Croissant', description: '', price_amount: 325 }] },
    ]);
    expect((await appMenu(locationId)).status).toBe(404);

    await page.getByRole('button', { name: 'Discard draft…' }).click();
    await page.getByRole('button', { name: 'Yes, discard the draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft discarded.' }).waitFor();
    await stateHeading(page, 'No menu yet').waitFor();
    expect(await page.getByRole('heading', { level: 2, name: /Pastries/ }).count()).toBe(0);
    await accessibleAtBothWidths(page);
    expect(problems).toEqual([]);
    await page.close();
    expect((await api.call('GET', draftPath(locationId), { token: owner.token })).body.menu_draft).toMatchObject({ state: 'empty', version: 2 });
    expect((await appMenu(locationId)).status).toBe(404);
  });

  it('a save over a draft someone else changed is refused (409) and offers to load the menu as it is now', PAGE_TEST, async () => {
    const locationId = await publishedLocation('Dockside');
    const { page, problems } = await signedInAt(1280, locationId, { email: owner.email, password: CONSOLE_PASSWORD.owner });
    await stateHeading(page, 'Published').waitFor();

    // Someone else saves a draft (the cookie repriced) after the page read version 1.
    const read = await api.call('GET', draftPath(locationId), { token: owner.token });
    const theirs = structuredClone(read.body.menu_draft.menu);
    theirs.categories.find((category: any) => category.name === 'Drinks and sweets').items[1].price_amount = 249;
    const other = await api.call('PUT', draftPath(locationId), {
      token: owner.token,
      body: { menu_draft: { version: read.body.menu_draft.version, menu: theirs } },
    });
    expect(other.status, other.text).toBe(200);

    await itemGroup(page, 'Water').getByLabel('Price in dollars', { exact: true }).fill('9.99');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'Someone else changed this menu' });
    await conflict.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Nothing of this page's edit was written: the draft is theirs.
    expect((await api.call('GET', draftPath(locationId), { token: owner.token })).body.menu_draft.menu).toEqual(other.body.menu_draft.menu);

    await conflict.getByRole('button', { name: 'Load the menu as it is now' }).click();
    await stateHeading(page, 'Draft, not published yet').waitFor();
    expect(await itemGroup(page, 'Cookie').getByLabel('Price in dollars', { exact: true }).inputValue()).toBe('2.49');
    expect(await itemGroup(page, 'Water').getByLabel('Price in dollars', { exact: true }).inputValue()).toBe('1.49');
    expect(await page.getByRole('alert').filter({ hasText: 'Someone else changed this menu' }).count()).toBe(0);
    // The one refused request (the browser logs it): the stale save was sent once, not again.
    expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']);
    await page.close();
  });

  it('at 390 px a staff member reads the menu, is told editing is for owners and managers, and the API agrees', PAGE_TEST, async () => {
    const locationId = await publishedLocation('Pier Road');
    const { page, problems } = await signedInAt(390, locationId, { email: cashier.email, password: CONSOLE_PASSWORD.staff });
    await page.getByText('You can read this menu. Editing, publishing and discarding it are for owners and managers.').waitFor();
    const drinks = page.getByRole('region', { name: 'Drinks and sweets' });
    expect(await drinks.getByRole('row').nth(1).getByRole('rowheader').textContent()).toBe('Water');
    expect(await drinks.getByRole('row').nth(1).getByRole('cell').first().textContent()).toBe('$1.49');
    expect(await page.getByRole('button', { name: 'Save draft' }).count()).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();

    const refused = await api.call('PUT', draftPath(locationId), { token: cashier.token, body: { menu_draft: { version: 1, menu: sampleMenu() } } });
    expect(refused.status).toBe(403);
    expect(refused.body[0].error.code).toBe('role_not_allowed');
  });
});
