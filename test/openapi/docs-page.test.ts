import { type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '#shared/domain/events/catalogue.ts';
import { routes } from '#shared/routes.ts';
import { useTestApi } from '../support/api.ts';
import { launchChromium } from '../support/chromium.ts';

const api = useTestApi();
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: BrowserContext;

beforeAll(async () => {
  chromium = await launchChromium('docs-page');
  browser = chromium.browser;
});

/**
 * Swagger UI parses and renders the whole document (its webhooks and examples included) before it shows an
 * operation: on a loaded two-core machine that takes longer than Playwright's 30 s default.
 */
const RENDER_WAIT = { timeout: 150_000 };
const PAGE_TEST = { timeout: 240_000 };

afterAll(async () => {
  await chromium?.close();
});

describe('the docs page in a browser', () => {
  it('renders every operation of the route table and every webhook, loading nothing from outside this API', PAGE_TEST, async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    const response = await page.goto(`${api.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    // Swagger UI renders one .opblock per operation and per webhook (its name as the path) once it has fetched and parsed /openapi.json.
    const expected = [...routes.map((route) => `${route.method} ${route.path}`), ...EVENT_TYPES.map((type) => `POST ${type}`)];
    await page
      .locator('.opblock')
      .nth(expected.length - 1)
      .waitFor(RENDER_WAIT);

    const shown = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '',
        // Swagger UI gives a deprecated operation's path its own class (struck through).
        path: block.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.getAttribute('data-path') ?? '',
        summary: block.querySelector('.opblock-summary-description')?.textContent?.trim() ?? '',
        deprecated: block.classList.contains('opblock-deprecated'),
      })),
    );
    expect(shown.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(expected.sort());
    for (const operation of shown) expect(operation.summary, `${operation.method} ${operation.path}`).not.toBe('');
    expect(shown.filter((operation) => operation.deprecated).map(({ method, path }) => `${method} ${path}`)).toContain('POST /v15/orders');

    expect(await page.title()).toBe('Loyalty API reference');
    expect(await page.locator('.info .title').textContent()).toContain('Loyalty, Rewards, Orders and Payments Service API');
    expect(pageErrors).toEqual([]);
    for (const url of requested) expect(url.startsWith(`${api.baseUrl}/`) || url.startsWith('data:'), url).toBe(true);
    expect(requested).toContain(`${api.baseUrl}/openapi.json`);
  });

  it(
    "shows POST /v15/completed_orders with its Idempotency-Key header, a real body, a real answer and each error status's own example",
    PAGE_TEST,
    async () => {
      const page = await browser.newPage();
      await page.setViewportSize({ width: 1280, height: 1000 });
      // deepLinking: the operation's tag and operationId open it.
      await page.goto(`${api.baseUrl}/docs#/Money/completed-orders-create`);
      const operation = page.locator('#operations-Money-completed-orders-create');
      await operation.locator('.parameters-container').waitFor(RENDER_WAIT);
      expect(await operation.locator('.parameters .parameter__name').allTextContents()).toEqual([expect.stringContaining('Idempotency-Key')]);
      const text = (await operation.textContent()) ?? '';
      // The C# SDK's own completed order (test/fixtures/client-payloads/csharp_v15_completed_orders__create.json) and its answer.
      expect(text).toContain('"cashier": "Bob"');
      expect(text).toContain('"uuid": "5a1z9x2h31ah7g8a9i9h8g7f6e5d4c4a21o"');
      expect(text).not.toContain('-9007199254740991');
      // The 409's own example, and this operation's own 422 first.
      expect(text).toContain('A request with this Idempotency-Key is still in progress; retry later.');
      expect(text).toContain("Completed order can't be blank");
      // `DOCS_SCREENSHOT=docs/api-reference-completed-order.png` keeps a picture of it (docs/openapi.md).
      if (process.env.DOCS_SCREENSHOT) await operation.screenshot({ path: process.env.DOCS_SCREENSHOT });
    },
  );
});
