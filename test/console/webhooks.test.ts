/**
 * The console's webhooks pages in headless Chromium against the local stack (docs/console.md, "Webhooks"; issue 39):
 * an owner adds an endpoint for a real receiver on loopback, sees its signing secret once (copy button, "will not be
 * shown again"), an order made then is delivered (signed with that secret) and shown delivered on the endpoint's
 * page; the owner replays it (the receiver gets the same event again, the page names the replay), meets the replay
 * limit's 429 in words with when to try again, and deletes the endpoint. A manager at 390 px reads the endpoint and
 * its deliveries and is told changes are the owner's; a staff member is told webhooks are not theirs. Zero axe-core
 * violations on each state at 1280 px and 390 px; `CONSOLE_SCREENSHOTS=1` writes webhooks.png and webhook-endpoint.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '#shared/domain/events/signature.ts';
import { launchChromium } from '../support/chromium.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { staffFixture } from '../support/staff.ts';
import { createEndpoint, startReceiver, useMailingTestApi, waitUntil, type Receiver } from '../support/webhooks.ts';
import { axeViolations, CONSOLE_PASSWORD, consoleSignIn, expectEmptyStart, PAGE_TEST, scrollWidth, shot } from './browser.ts';

// The event pipeline (the table's stream, the delivery queue) runs for this file, as `npm start` runs it.
const mailing = useMailingTestApi();
const { api } = mailing;
process.env.WEBHOOK_TIME_SCALE = '0.02';

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let world: OrderWorld;
let owner: { email: string; token: string };
let manager: { email: string };
let cashier: { email: string };
let receiver: Receiver;

beforeAll(async () => {
  const launched = launchChromium('console-webhooks');
  world = await orderWorld({ card: 'valid' });
  const merchantId = world.merchant.merchant.merchant_id;
  // The console's config.json names the app staff sign in through (scripts/local/console-files.ts).
  process.env.CONSOLE_API_KEY = mailing.app.apiKey;
  const appId = mailing.app.app.app_id;
  owner = await staffFixture(appId, merchantId, 'owner', { password: CONSOLE_PASSWORD.owner });
  manager = await staffFixture(appId, merchantId, 'manager', { password: CONSOLE_PASSWORD.manager });
  cashier = await staffFixture(appId, merchantId, 'staff', { password: CONSOLE_PASSWORD.staff });
  receiver = await startReceiver();
  chromium = await launched;
});

afterAll(async () => {
  delete process.env.CONSOLE_API_KEY;
  await receiver?.close();
  await chromium?.close();
});

const signedInAt = consoleSignIn(() => ({ browser: chromium.browser, baseUrl: api.baseUrl }));

const deliveriesTable = (page: Page) => page.getByRole('region', { name: /^Latest deliveries to / });

/** The page's read of an endpoint's deliveries (`GET /v15/webhook_endpoints/{id}/deliveries`). */
const DELIVERIES_READ = /\/v15\/webhook_endpoints\/[^/]+\/deliveries$/;

/**
 * Clicks "Refresh the deliveries" until the table has a row matching `row`. Each click waits for its own answer (the
 * button is aria-disabled while a read runs, and playwright's click waits for it to be enabled again).
 */
async function refreshUntil(page: Page, row: RegExp): Promise<void> {
  await expect
    .poll(
      async () => {
        const answered = page.waitForResponse((response) => DELIVERIES_READ.test(new URL(response.url()).pathname));
        await page.getByRole('button', { name: 'Refresh the deliveries' }).click();
        await answered;
        await page.waitForTimeout(50);
        return (await deliveriesTable(page).count()) > 0 ? (await deliveriesTable(page).getByRole('row').allTextContents()).join('\n') : '';
      },
      { timeout: 30_000, interval: 250 },
    )
    .toMatch(row);
}

describe("the console's webhooks pages", () => {
  it('an owner adds an endpoint, stores its secret once, sees an order delivered, replays it, meets the limit in words and deletes it', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(1280, '/webhooks', { email: owner.email, password: CONSOLE_PASSWORD.owner }, 'Webhooks');
    await expectEmptyStart(page, 'Webhooks · Merchant console', 'No endpoint yet: no event is sent.');

    // Add: the address, every event (all checked by default); the secret is shown once, with its copy button.
    await page.getByLabel('Address (https)').fill(receiver.url);
    expect(await page.getByRole('group', { name: 'Events to send' }).getByRole('checkbox', { checked: true }).count()).toBe(5);
    await page.getByRole('checkbox', { name: /A campaign is unlocked/ }).uncheck();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    const secretHeading = page.getByRole('heading', { level: 2, name: 'Store the signing secret now' });
    await secretHeading.waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Store the signing secret now');
    await page.getByText('It will not be shown again').waitFor();
    const secret = (await page.locator('.secret code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.baseUrl });
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await page.getByRole('status').filter({ hasText: 'The secret is copied.' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(secret);
    const table = page.getByRole('region', { name: /^Webhook endpoints \(1 of at most 10\)$/ });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Address', 'Events', 'Added', 'Given up']);
    expect(await table.getByRole('row').nth(1).textContent()).toContain(receiver.url);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByText('The endpoint is added.').waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    expect((await api.call('GET', '/v15/webhook_endpoints', { token: owner.token })).text).not.toContain(secret);
    await shot(page, 'webhooks');

    // An order made now reaches the receiver, signed with the secret the page showed.
    const placed = await placeOrder(api, world);
    expect(placed.status, placed.text).toBe(200);
    const uuid = placed.body.order.uuid as string;
    await waitUntil(() => receiver.delivered().some((event) => event.resource.id === uuid), 'the order.completed delivery', 10_000);
    const delivery = receiver.received.find((received) => received.body.includes(uuid))!;
    expect(verifySignature(String(delivery.headers['levelup-signature']), delivery.body, secret)).toBe(true);
    const eventId = JSON.parse(delivery.body).event.id as string;

    // The endpoint's page shows it delivered.
    await table.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await refreshUntil(page, new RegExp(`An order is completedDelivered1HTTP 200.*The event${eventId}`));
    expect(await deliveriesTable(page).getByRole('columnheader').allTextContents()).toEqual([
      'Event',
      'State',
      'Attempts',
      'Last answer',
      'Last attempt',
      'Next attempt',
      'Sent by',
      'Event id',
    ]);
    expect(await axeViolations(page)).toEqual([]);

    // While a refresh is under way the button waits and says so: a second click starts no second read.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    await page.route(DELIVERIES_READ, async (route) => {
      reads += 1;
      await held;
      await route.continue();
    });
    const refresh = page.getByRole('button', { name: 'Refresh the deliveries' });
    await refresh.click();
    await page.getByRole('status').filter({ hasText: 'Refreshing the deliveries…' }).waitFor();
    expect(await refresh.getAttribute('aria-disabled')).toBe('true');
    // force: a person can still press it (aria-disabled keeps its focus); playwright would wait for it to be enabled.
    await refresh.click({ force: true });
    expect(reads).toBe(1);
    expect(await deliveriesTable(page).getByRole('row').count()).toBeGreaterThan(1);
    expect(await axeViolations(page)).toEqual([]);
    release();
    await page.getByRole('status').filter({ hasText: 'Refreshing the deliveries…' }).waitFor({ state: 'detached' });
    expect(await refresh.getAttribute('aria-disabled')).toBe('false');
    await page.unroute(DELIVERIES_READ);
    expect(reads).toBe(1);

    // Replay the last hour: the same event again (same id and body), and the page names the replay.
    const before = receiver.received.length;
    await page.getByLabel('Events of').selectOption({ label: 'the last hour' });
    await page.getByRole('button', { name: 'Replay the events of the last hour' }).click();
    const replayed = page.getByRole('status').filter({ hasText: /^1 event is sent again, in order \(replay rp_[0-9a-f]{32}\)/ });
    await replayed.waitFor();
    const replayId = /replay (rp_[0-9a-f]{32})/.exec((await replayed.textContent()) ?? '')![1]!;
    await waitUntil(() => receiver.received.length === before + 1, 'the replayed delivery', 10_000);
    expect(receiver.received.at(-1)!.body).toBe(delivery.body);
    await refreshUntil(page, new RegExp(`Delivered1HTTP 200.*Replay ${replayId}${eventId}`));
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'webhook-endpoint');

    // Two more replays are within the limit (3 every 15 minutes); the fourth is refused in words, with when to retry.
    const shownReplay = async () => /replay (rp_[0-9a-f]{32})/.exec((await page.getByRole('status').allTextContents()).join(' '))?.[1];
    let lastReplay = replayId;
    for (let replay = 0; replay < 2; replay++) {
      await page.getByRole('button', { name: 'Replay the events of the last hour' }).click();
      // A new replay's id replaces the last one's (the line is gone while the request runs).
      await expect.poll(async () => ((await shownReplay()) ?? lastReplay) !== lastReplay, { timeout: 10_000 }).toBe(true);
      lastReplay = (await shownReplay())!;
    }
    await page.getByRole('button', { name: 'Replay the events of the last hour' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Replays of this endpoint are limited to 3 every 15 minutes and 10 a day' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/Try again in \d+ minutes? \(after \d\d:\d\d UTC\)\.Reference for support: /);
    expect(await axeViolations(page)).toEqual([]);

    // Delete, after a confirmation; the list says so and the API lists nothing.
    await page.getByRole('button', { name: 'Delete this endpoint' }).click();
    await page.getByText(`Delete the endpoint ${receiver.url}?`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Yes, delete the endpoint' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `The endpoint ${receiver.url} is deleted.` })
      .waitFor();
    await page.getByText('No endpoint yet: no event is sent.').waitFor();
    expect((await api.call('GET', '/v15/webhook_endpoints', { token: owner.token })).status).toBe(204);
    // The browser logs the refused replay's status (the answer the page turned into words); nothing else, no CSP report.
    expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 429 (Too Many Requests)']);
    await page.close();
  });

  it(
    'at 390 px a manager reads the endpoint and its deliveries and is told changes are the owner’s; a staff member is told webhooks are not theirs',
    PAGE_TEST,
    async () => {
      const endpoint = await createEndpoint(api, owner.token, receiver.url, ['order.completed']);
      const placed = await placeOrder(api, world);
      const uuid = placed.body.order.uuid as string;
      await waitUntil(() => receiver.delivered().some((event) => event.resource.id === uuid), 'the delivery', 10_000);

      const { page, problems } = await signedInAt(390, '/webhooks', { email: manager.email, password: CONSOLE_PASSWORD.manager }, 'Webhooks');
      await page.getByText('Only an owner can add or delete an endpoint, change its secret or replay events.').waitFor();
      await page.getByRole('region', { name: /^Webhook endpoints \(1 of at most 10\)$/ }).waitFor();
      expect(await page.getByRole('heading', { name: 'Add an endpoint' }).count()).toBe(0);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('link', { name: receiver.url }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
      await refreshUntil(page, /An order is completedDelivered1HTTP 200/);
      await page.getByText('Only an owner can replay events, change the signing secret or delete this endpoint.').waitFor();
      expect(await page.getByRole('button', { name: /Replay|Delete|Change the signing secret/ }).count()).toBe(0);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();

      const staff = await signedInAt(390, '/webhooks', { email: cashier.email, password: CONSOLE_PASSWORD.staff }, 'Webhooks');
      await staff.page.getByText('Webhooks are for owners and managers.').waitFor();
      expect(await axeViolations(staff.page)).toEqual([]);
      expect(staff.problems).toEqual([]);
      await staff.page.close();
      expect((await api.call('DELETE', `/v15/webhook_endpoints/${endpoint.id}`, { token: owner.token })).status).toBe(204);
    },
  );
});
