import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { StaffRole } from '#shared/routes.ts';
import { launchChromium } from '../support/chromium.ts';
import { appFixture } from '../support/fixtures.ts';

/** What the console's browser tests share (docs/console.md): axe-core, a page that records problems, screenshots. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.CONSOLE_SCREENSHOTS === '1';

/** The password a console test's staff member of each role signs in with (an invited manager sets theirs through the mailed link). */
export const CONSOLE_PASSWORD: Record<StaffRole, string> = {
  owner: 'console owner password 1',
  manager: 'console manager password 1',
  staff: 'console staff password 1',
};

/** A browser test's time: a page, a sign-in and a few round trips to the local stack. */
export const PAGE_TEST = { timeout: 120_000 };

/** axe-core's violations on the page as it is now (WCAG 2.x A and AA, and best practices). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (an injected <script> would be refused).
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    return axe.run((globalThis as any).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
  });
  return results.violations.map(
    (violation: any) => `${violation.id}: ${violation.help} (${violation.nodes.map((node: any) => node.target.join(' ')).join(', ')})`,
  );
}

/** A page that records what the browser refused (CSP) and what threw, to assert both stay empty. */
export async function openPage(browser: BrowserContext, width: number): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height: 900 });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return { page, problems };
}

/** The sign-in form filled and sent; the caller waits for the page it expects. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A new page at `url` (a console address), signed in there as `who`, once the page's heading shows. */
export async function signedInPage(
  browser: BrowserContext,
  width: number,
  url: string,
  who: { email: string; password: string },
  heading: string | RegExp,
): Promise<{ page: Page; problems: string[] }> {
  const opened = await openPage(browser, width);
  await opened.page.goto(url);
  await submitSignIn(opened.page, who.email, who.password);
  await opened.page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return opened;
}

/**
 * A test file's `signedInAt(width, path, who, heading)`: a new page at the console's client route `path`, signed in as `who`.
 * `started` is read at each call, as the browser and the local stack start in the file's beforeAll.
 */
export function consoleSignIn(started: () => { browser: BrowserContext; baseUrl: string }) {
  return (width: number, path: string, who: { email: string; password: string }, heading: string | RegExp) => {
    const { browser, baseUrl } = started();
    return signedInPage(browser, width, `${baseUrl}/console${path}`, who, heading);
  };
}

/**
 * A console test file's start, in its beforeAll: Chromium launched as `name` while an app is made, and the console's
 * config.json naming that app, the one staff sign in through (scripts/local/console-files.ts). closeConsoleBrowser undoes both.
 */
export async function startConsole(name: string) {
  const [{ apiKey, app }, chromium] = await Promise.all([appFixture(), launchChromium(name)]);
  process.env.CONSOLE_API_KEY = apiKey;
  return { chromium, appId: app.app_id };
}

/** After a file's browser tests: the console's config.json names no app again, and the browser is closed. */
export async function closeConsoleBrowser(chromium: { close: () => Promise<void> } | undefined): Promise<void> {
  delete process.env.CONSOLE_API_KEY;
  await chromium?.close();
}

/** A page as it first opens, before anything is added: its document title, its words for "nothing yet" and no axe-core violation. */
export async function expectEmptyStart(page: Page, title: string, nothingYet: string): Promise<void> {
  expect(await page.title()).toBe(title);
  await page.getByText(nothingYet).waitFor();
  expect(await axeViolations(page)).toEqual([]);
}

/** The page's picture in docs/console/ under CONSOLE_SCREENSHOTS=1. */
export async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `docs/console/${name}.png`, fullPage: true });
}

/** The document's width, to assert a phone-width page never scrolls sideways. */
export const scrollWidth = (page: Page): Promise<number> => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
