import { gzipSync } from 'node:zlib';
import { type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CACHE_CONTROL, consoleSecurityHeaders } from '#shared/http/console-headers.ts';
import { useTestApi } from '../support/api.ts';
import { launchChromium } from '../support/chromium.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { staffFixture } from '../support/staff.ts';
import {
  axeViolations,
  closeConsoleBrowser,
  CONSOLE_PASSWORD,
  consoleSignIn,
  openPage as openBrowserPage,
  PAGE_TEST,
  scrollWidth,
  shot,
  startConsole,
  submitSignIn,
} from './browser.ts';

/**
 * The merchant console in headless Chromium against the local stack (docs/console.md): an owner signs in, sees
 * the home page's figures per location, signs out, and the token they had is refused by the API. Every page
 * visited has zero axe-core violations and no Content-Security-Policy report; one run is at a phone's 390 px.
 * `CONSOLE_SCREENSHOTS=1` writes each page's picture to docs/console/.
 */
const api = useTestApi();

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: BrowserContext;
let owner: { email: string; merchantId: number; locationName: string };
let newOwnerEmail: string;

beforeAll(async () => {
  const started = await startConsole('console');
  chromium = started.chromium;
  browser = chromium.browser;
  const { merchant } = await merchantFixture(started.appId);
  const location = await locationFixture(merchant.merchant_id, { name: 'Harbour Street' });
  const { email } = await staffFixture(started.appId, merchant.merchant_id, 'owner', { password: CONSOLE_PASSWORD.owner });
  owner = { email, merchantId: merchant.merchant_id, locationName: location.name ?? '' };
  // A merchant that has just signed up: no location yet.
  const { merchant: newMerchant } = await merchantFixture(started.appId);
  newOwnerEmail = (await staffFixture(started.appId, newMerchant.merchant_id, 'owner', { password: CONSOLE_PASSWORD.owner })).email;
});

afterAll(() => closeConsoleBrowser(chromium));

const openPage = (width: number) => openBrowserPage(browser, width);
const signedInAt = consoleSignIn(() => ({ browser, baseUrl: api.baseUrl }));

async function signIn(page: Page): Promise<void> {
  await submitSignIn(page, owner.email, CONSOLE_PASSWORD.owner);
  await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
}

/** The home page's bar chart: a labelled image with pixels drawn, and the same figures in its table (7 days, per location). */
async function expectWeekChart(page: Page): Promise<void> {
  const chart = page.getByRole('img', { name: /^Bar chart of sales per day from .+ to .+, one bar per location\. The figures are in the table below\.$/ });
  await chart.waitFor();
  await expect
    .poll(() =>
      chart.evaluate((canvas: any) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        return data.some((value: number, index: number) => index % 4 === 3 && value > 0);
      }),
    )
    .toBe(true);
  const table = page.getByRole('region', { name: 'Sales per day and location (UTC days)' });
  expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Day', owner.locationName]);
  expect(await table.getByRole('rowheader').count()).toBe(7);
}

describe('the merchant console', () => {
  it('serves index.html for any client route with the CSP and no-cache, and hashed assets immutable', async () => {
    const document = await fetch(`${api.baseUrl}/console/orders/some-client-route`);
    expect(document.status).toBe(200);
    expect(document.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(document.headers.get('Cache-Control')).toBe(CONSOLE_CACHE_CONTROL.document);
    // The one other origin allowed is the image store's (s3rver here), for pictures: exactly it, no wildcard.
    const imagesOrigin = new URL(process.env.S3_ENDPOINT!).origin;
    const headers = consoleSecurityHeaders(imagesOrigin);
    for (const [name, value] of Object.entries(headers)) expect(document.headers.get(name), name).toBe(value);
    expect(headers['Content-Security-Policy']).toContain(`connect-src 'self' ${imagesOrigin};`);
    expect(headers['Content-Security-Policy']).not.toContain('*');
    const html = await document.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = /<script[^>]*src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${api.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('Cache-Control')).toBe(CONSOLE_CACHE_CONTROL.hashedAsset);
    expect(asset.headers.get('Content-Security-Policy')).toBe(headers['Content-Security-Policy']);
    // Issue 39: the first load under 200 KiB of compressed JavaScript, and React's production build (the development
    // build carries its warnings' text), whatever NODE_ENV the build ran under (vitest's is "test").
    const javascript = Buffer.from(await asset.arrayBuffer());
    expect(gzipSync(javascript).byteLength).toBeLessThan(200 * 1024);
    expect(javascript.toString('utf8')).not.toContain('should have a unique "key" prop');
    const missing = await fetch(`${api.baseUrl}/console/assets/gone-0000.js`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    const config = await fetch(`${api.baseUrl}/console/config.json`);
    expect(config.headers.get('Cache-Control')).toBe(CONSOLE_CACHE_CONTROL.document);
    expect(await config.json()).toEqual({ api_key: process.env.CONSOLE_API_KEY });
    const post = await fetch(`${api.baseUrl}/console/`, { method: 'POST' });
    expect(post.status).toBe(405);
    await post.arrayBuffer();
  });

  it('an owner signs in, sees the figures per location, signs out, and the token is then refused', PAGE_TEST, async () => {
    const { page, problems } = await openPage(1280);
    await page.goto(`${api.baseUrl}/console/`);
    await page.getByRole('heading', { level: 1, name: 'Sign in to the merchant console' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'sign-in');

    await signIn(page);
    const today = page.getByRole('region', { name: 'Today' });
    await today.getByRole('rowheader', { name: owner.locationName }).waitFor();
    expect(await today.getByRole('rowheader').allTextContents()).toEqual(['All locations', owner.locationName]);
    expect(await today.getByRole('columnheader').allTextContents()).toEqual([
      'Location',
      'Orders',
      'Sales',
      'Tips',
      'Refunds',
      'Gift card value added',
      'Gift card value spent',
      'New loyalty members',
      'Rewards earned',
    ]);
    // The week's chart (Chart.js, loaded lazily) is drawn, and its figures are in the table under it.
    await expectWeekChart(page);
    await expect.poll(() => page.getByRole('banner').textContent()).toContain('Test owner (owner)');
    expect(await page.title()).toBe('Home · Merchant console');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'home');

    const session = JSON.parse((await page.evaluate(() => sessionStorage.getItem('console.session'))) ?? 'null');
    expect(session).toEqual({ token: expect.any(String), merchantId: owner.merchantId });
    const cookies = await browser.cookies(api.baseUrl);
    expect(cookies).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('console.session'))).toBeNull();
    const refused = await api.call('GET', `/v15/merchants/${owner.merchantId}/staff/me`, { token: session.token });
    expect(refused.status).toBe(401);
    expect(await axeViolations(page)).toEqual([]);

    // A client route the app does not know is its own "not found" page (the server answered index.html).
    await page.goto(`${api.baseUrl}/console/no-such-page`);
    await submitSignIn(page, owner.email, CONSOLE_PASSWORD.owner);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('tells a merchant with no location yet so on each page made of locations (locations, orders, menu)', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(1280, '/', { email: newOwnerEmail, password: CONSOLE_PASSWORD.owner }, 'Home');
    const pages = [
      ['Locations', 'This merchant has no location yet.'],
      ['Orders', 'This merchant has no location yet, so no orders.'],
      ['Menu', 'This merchant has no location yet, so no menu.'],
    ];
    for (const [name, words] of pages) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page.getByText(words!, { exact: true }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Location' }).count(), name).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works at a phone width of 390 px: no sideways scrolling of the page, zero axe violations', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(390, '/', { email: owner.email, password: CONSOLE_PASSWORD.owner }, 'Home');
    await page.getByRole('region', { name: 'This week' }).getByRole('rowheader', { name: owner.locationName }).waitFor();
    await expectWeekChart(page);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'home-phone');
    expect(problems).toEqual([]);
    await page.close();
  });
});
