import { type BrowserContext, type Locator, type Page } from 'playwright-core';
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

/**
 * Swagger UI virtualizes its operation list from this many entries, tags and operations together
 * (VIRTUALIZE_OPERATIONS_THRESHOLD in swagger-ui-dist's source): past it, only the entries near the viewport are
 * in the page. The page opens with its tags closed and this test opens one at a time (docs/openapi.md, "The docs
 * page"), so it holds whatever the number of operations; the count below makes sure it is past that size.
 */
const SWAGGER_UI_VIRTUALIZES_FROM = 150;

interface ShownOperation {
  method: string;
  path: string;
  summary: string;
  deprecated: boolean;
}

/** The operation blocks under `blocks` as a reader sees them: method, path, summary, struck through or not. */
async function readOperations(blocks: Locator): Promise<ShownOperation[]> {
  return blocks.evaluateAll((elements) =>
    elements.map((block) => ({
      method: block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '',
      // Swagger UI gives a deprecated operation's path its own class (struck through).
      path: block.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.getAttribute('data-path') ?? '',
      summary: block.querySelector('.opblock-summary-description')?.textContent?.trim() ?? '',
      deprecated: block.classList.contains('opblock-deprecated'),
    })),
  );
}

const tagHeader = (page: Page, tag: string) => page.locator(`h3.opblock-tag[data-tag=${JSON.stringify(tag)}]`);
const shownTags = (page: Page) => page.locator('h3.opblock-tag').evaluateAll((headers) => headers.map((header) => header.getAttribute('data-tag') ?? ''));

describe('the docs page in a browser', () => {
  it('lists every tag closed, and each opened shows all its operations; every webhook; nothing loaded from outside this API', PAGE_TEST, async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    const response = await page.goto(`${api.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    // The tag headers appear once Swagger UI has fetched and parsed /openapi.json, all in one render.
    await page.locator('h3.opblock-tag').first().waitFor(RENDER_WAIT);
    const tags = await shownTags(page);
    expect(routes.length + tags.length).toBeGreaterThanOrEqual(SWAGGER_UI_VIRTUALIZES_FROM);
    expect(await page.locator('.opblock-tag-section.is-open').count()).toBe(0);

    // One tag open at a time: its operations render in the same commit as the section's is-open class.
    const byTag = new Map<string, ShownOperation[]>();
    for (const tag of tags) {
      const toggle = tagHeader(page, tag).locator('button.expand-operation');
      const section = page.locator('.opblock-tag-section.is-open', { has: tagHeader(page, tag) });
      await toggle.click();
      await section.waitFor(RENDER_WAIT);
      byTag.set(tag, await readOperations(section.locator('.opblock')));
      await toggle.click();
      await section.waitFor({ state: 'detached' });
    }
    // Swagger UI renders one .opblock per webhook too (its name as the path), below the tags, always open.
    await page
      .locator('.webhooks .opblock')
      .nth(EVENT_TYPES.length - 1)
      .waitFor(RENDER_WAIT);
    const webhooks = await readOperations(page.locator('.webhooks .opblock'));
    const shown = [...[...byTag.values()].flat(), ...webhooks];

    const expected = [...routes.map((route) => `${route.method} ${route.path}`), ...EVENT_TYPES.map((type) => `POST ${type}`)];
    expect(shown.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(expected.sort());
    for (const operation of shown) expect(operation.summary, `${operation.method} ${operation.path}`).not.toBe('');
    expect(shown.filter((operation) => operation.deprecated).map(({ method, path }) => `${method} ${path}`)).toContain('POST /v15/orders');

    // The filter box keeps the tags whose name, or one of whose operations' paths, holds the phrase.
    const phrase = 'completed_orders';
    const holding = tags.filter((tag) => tag.toLowerCase().includes(phrase) || byTag.get(tag)!.some((operation) => operation.path.includes(phrase)));
    expect(holding.length).toBeGreaterThan(0);
    expect(holding.length).toBeLessThan(tags.length);
    await page.locator('.operation-filter-input').fill(phrase);
    await expect.poll(() => shownTags(page), RENDER_WAIT).toEqual(holding);

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
      // deepLinking: the operation's tag and operationId open it, its tag closed until then.
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
