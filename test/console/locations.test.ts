/**
 * The console's locations pages in headless Chromium against the local stack (docs/console.md, "Locations"): a
 * manager changes a location's opening hours and whether apps show it (the API then answers the new hours), is told
 * the ways to order are the owner's (the API answers them 403), and uploads a real JPEG, which goes straight to the
 * image store (s3rver, through the presigned POST, allowed by the console's CSP and the bucket's CORS rule), is
 * processed and shown; a file that is not a picture fails with its reason in words. A staff member reads the settings
 * and cannot change them. An owner at 390 px adds a location, then makes it deliver within a radius (the API answers
 * the new ways to order and the radius). Every page and state has zero axe-core violations at 1280 px and 390 px.
 * `CONSOLE_SCREENSHOTS=1` writes locations.png and location.png to docs/console/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Local } from '../../scripts/local/s3.ts';
import { useTestApi } from '../support/api.ts';
import { launchChromium } from '../support/chromium.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { sampleJpeg, startUploadsS3 } from '../support/image-uploads.ts';
import { locationFixture } from '../support/locations.ts';
import { staffFixture } from '../support/staff.ts';
import { axeViolations, CONSOLE_PASSWORD, PAGE_TEST, scrollWidth, shot, signedInPage } from './browser.ts';

const api = useTestApi();

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let s3: S3Local;
let merchantId: number;
let locationId: number;
let people: Record<'owner' | 'manager' | 'staff', { email: string; token: string }>;
let jpeg: Buffer;

beforeAll(async () => {
  const launched = launchChromium('console-locations');
  // With the CORS rule for the console's origin (the gateway's); the console's CSP allows its origin (scripts/local/console-files.ts).
  s3 = await startUploadsS3('console-locations', { consoleOrigin: new URL(api.baseUrl).origin });

  const { apiKey, app } = await appFixture();
  process.env.CONSOLE_API_KEY = apiKey;
  const { merchant } = await merchantFixture(app.app_id);
  merchantId = merchant.merchant_id;
  const location = await locationFixture(merchantId, {
    name: 'Harbour Street',
    fulfillment_types: ['in_store'],
    hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], opens: '07:00', closes: '19:00' }],
  });
  locationId = location.location_id;
  const [owner, manager, staff] = await Promise.all(
    (['owner', 'manager', 'staff'] as const).map((role) => staffFixture(app.app_id, merchantId, role, { password: CONSOLE_PASSWORD[role] })),
  );
  people = { owner: owner!, manager: manager!, staff: staff! };
  jpeg = await sampleJpeg('#2f7d5b');
  chromium = await launched;
});

afterAll(async () => {
  delete process.env.CONSOLE_API_KEY;
  await chromium?.close();
  await s3?.stop();
});

const locationPath = (id = locationId) => `/v15/merchants/${merchantId}/locations/${id}`;

/** Opens the console at `path` (a client route), signs in there and waits for the page's heading. */
async function signedInAt(width: number, path: string, who: 'owner' | 'manager' | 'staff', heading: string) {
  return signedInPage(chromium.browser, width, `${api.baseUrl}/console${path}`, { email: people[who].email, password: CONSOLE_PASSWORD[who] }, heading);
}

const day = (page: Page, name: string) => page.getByRole('group', { name });

describe("the console's locations pages", () => {
  it('a manager changes the hours, is told the ways to order are the owner’s, and uploads a picture that is processed and shown', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(1280, '/locations', 'manager', 'Locations');
    const table = page.getByRole('region', { name: 'Your locations (1)' });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Location', 'Address', 'Ways to order', 'In apps']);
    expect(await table.getByRole('row').nth(1).textContent()).toBe('Harbour Street1 Main St, Boston, MA 02110In storeShown');
    expect(await page.getByRole('link', { name: 'Add a location' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'locations');

    await table.getByRole('link', { name: 'Harbour Street' }).click();
    await page.getByRole('heading', { level: 1, name: 'Harbour Street' }).waitFor();
    expect(page.url()).toBe(`${api.baseUrl}/console/locations/${locationId}`);
    expect(await day(page, 'Monday').getByLabel('Opens').inputValue()).toBe('07:00');
    await day(page, 'Saturday').getByText('Closed').waitFor();
    // Managers see the owner's settings in words, with who changes them, and no control for them.
    await page.getByText('Only an owner changes the ways to order, the delivery area, the ready time and tips.').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Delivery', exact: true }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // Monday opens later; Saturday opens (the new period's first field takes focus); Friday closes; hidden from apps.
    await day(page, 'Monday').getByLabel('Opens').fill('08:30');
    await page.getByRole('button', { name: 'Open on Saturday' }).click();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('opens-sat-0');
    await day(page, 'Saturday').getByLabel('Opens').fill('09:00');
    await day(page, 'Saturday').getByLabel('Closes').fill('14:00');
    await day(page, 'Friday')
      .getByRole('button', { name: /^Remove/ })
      .click();
    await day(page, 'Friday').getByText('Closed').waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('add-fri');
    await page.getByRole('checkbox', { name: 'Shown in apps' }).uncheck();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save settings' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Apps show the new settings now.' });
    await saved.waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toContain('Saved at');
    expect(await day(page, 'Saturday').getByLabel('Closes').inputValue()).toBe('14:00');

    // The API answers the new values: days with the same times share one period.
    const answered = await api.call('GET', locationPath(), { token: people.owner.token });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body.location).toMatchObject({
      hours: [
        { days: ['mon'], opens: '08:30', closes: '19:00' },
        { days: ['tue', 'wed', 'thu'], opens: '07:00', closes: '19:00' },
        { days: ['sat'], opens: '09:00', closes: '14:00' },
      ],
      shown: false,
      fulfillment_types: ['in_store'],
    });
    // The ways to order are the owner's: the API refuses them from a manager and changes nothing.
    const refused = await api.call('PUT', locationPath(), { token: people.manager.token, body: { location: { fulfillment_types: ['in_store', 'pickup'] } } });
    expect(refused.status).toBe(403);
    expect((await api.call('GET', locationPath(), { token: people.owner.token })).body.location.fulfillment_types).toEqual(['in_store']);

    // The upload, held at the image store for a moment so its progress is checked too.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${s3.endpoint}/**`, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.getByLabel('Picture (JPEG, PNG or WebP, up to 20 MB)').setInputFiles({ name: 'harbour.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await page.getByRole('button', { name: 'Upload the picture' }).click();
    await page.getByRole('status').filter({ hasText: 'Sending the picture…' }).waitFor();
    expect(await page.getByRole('progressbar', { name: 'Sending the picture' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Upload the picture' }).isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    release();
    const ready = page.getByRole('status').filter({ hasText: 'The picture is ready. Apps show it now.' });
    await ready.waitFor({ timeout: 30_000 });
    // The new picture, through the app's image route's redirect to the store: loaded, at the size asked for.
    const picture = page.getByRole('img', { name: 'The new picture of Harbour Street' });
    await expect.poll(() => picture.evaluate((image: any) => image.complete && image.naturalWidth)).toBe(640);
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe('The picture is ready. Apps show it now.');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'location');
    await page.unroute(`${s3.endpoint}/**`);

    // A file that is not a picture: the processing refuses it, and the page says why in words.
    await page
      .getByLabel('Picture (JPEG, PNG or WebP, up to 20 MB)')
      .setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a picture') });
    await page.getByRole('button', { name: 'Upload the picture' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'The picture was not used.' });
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.textContent()).toBe('The picture was not used. The file is not a picture (JPEG, PNG or WebP).');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();

    // The app route serves the manager's picture: a redirect to the store's new version.
    const image = await fetch(`${api.baseUrl}/v15/locations/${locationId}/image?width=320&height=212&density=2`, { redirect: 'manual' });
    expect(image.status).toBe(302);
    expect(new URL(image.headers.get('Location')!).origin).toBe(s3.endpoint);
  });

  it('at 390 px a staff member reads the locations and a location’s settings, and may change nothing', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(390, '/locations', 'staff', 'Locations');
    await page.getByRole('region', { name: 'Your locations (1)' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${api.baseUrl}/console/locations/${locationId}`);
    await page.getByRole('heading', { level: 1, name: 'Harbour Street' }).waitFor();
    await page.getByText('Owners and managers change these settings; you can read them.').waitFor();
    await page.getByText('Owners and managers change the location’s picture.').waitFor();
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await page.locator('input[type="file"]').count()).toBe(0);
    expect(await page.getByRole('definition').allTextContents()).toContain('In store');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();

    const refused = await api.call('PUT', locationPath(), { token: people.staff.token, body: { location: { shown: true } } });
    expect(refused.status).toBe(403);
  });

  it('at 390 px an owner adds a location, then makes it deliver within a radius and offer pickup', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(390, '/locations', 'owner', 'Locations');
    await page.getByRole('link', { name: 'Add a location' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a location' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel(/^Name/).fill('Seaport Kiosk');
    await page.getByLabel('Street address', { exact: true }).fill('20 Seaport Blvd');
    await page.getByLabel('City', { exact: true }).fill('Boston');
    await page.getByLabel('State or region', { exact: true }).fill('MA');
    await page.getByLabel('Postal code', { exact: true }).fill('02210');
    await page.getByLabel('Latitude', { exact: true }).fill('42.3519');
    await page.getByLabel('Longitude', { exact: true }).fill('-71.0446');
    await page.getByLabel(/^Time zone/).selectOption('America/New_York');
    await page.getByRole('button', { name: 'Add the location' }).click();
    await page.getByRole('heading', { level: 1, name: 'Seaport Kiosk' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'The location is created.' }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').at(-1));
    const created = await api.call('GET', locationPath(id), { token: people.owner.token });
    expect(created.status, created.text).toBe(200);
    expect(created.body.location).toMatchObject({
      merchant_id: merchantId,
      name: 'Seaport Kiosk',
      street_address: '20 Seaport Blvd',
      postal_code: '02210',
      latitude: 42.3519,
      longitude: -71.0446,
      time_zone: 'America/New_York',
      fulfillment_types: ['in_store'],
      delivery_radius_m: null,
      hours: [],
      shown: true,
    });

    // Pickup and delivery within 3 km; the radius field appears with delivery.
    await page.getByRole('checkbox', { name: 'Pickup (order ahead)' }).check();
    await page.getByRole('checkbox', { name: 'Delivery', exact: true }).check();
    await page.getByLabel('Delivery area: radius in meters').fill('3000');
    await page.getByText('Now: 3 km (3,000 m).').waitFor();
    await page.getByLabel('Ready in (minutes)').fill('20');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Apps show the new settings now.' }).waitFor();
    const changed = await api.call('GET', locationPath(id), { token: people.owner.token });
    expect(changed.body.location).toMatchObject({
      fulfillment_types: ['in_store', 'pickup', 'delivery'],
      delivery_radius_m: 3000,
      ready_time_estimate_in_minutes: 20,
    });

    // Stopping delivery sends the radius away with it (the API's rule), and the list shows the ways to order.
    await page.getByRole('checkbox', { name: 'Delivery', exact: true }).uncheck();
    expect(await page.getByLabel('Delivery area: radius in meters').count()).toBe(0);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => (await api.call('GET', locationPath(id), { token: people.owner.token })).body.location.delivery_radius_m).toBeNull();
    expect((await api.call('GET', locationPath(id), { token: people.owner.token })).body.location.fulfillment_types).toEqual(['in_store', 'pickup']);
    await page.getByRole('link', { name: 'Back to the locations' }).click();
    const table = page.getByRole('region', { name: 'Your locations (2)' });
    await table.waitFor();
    expect(await table.getByRole('row').nth(2).getByRole('cell').allTextContents()).toEqual([
      '20 Seaport Blvd, Boston, MA 02210',
      'In store, Pickup (order ahead)',
      'Shown',
    ]);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
