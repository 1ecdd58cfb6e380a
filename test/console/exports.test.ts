/**
 * The console's audit log and CSV exports in headless Chromium against the local stack (docs/console.md, issue 39).
 * Setup: three orders the POS completed today, one refunded by a manager and one by the owner through the API. An
 * owner downloads the day's orders CSV (it lists those orders) and the ledger CSV, is told in words when the API
 * refuses a range, reads the audit log (the manager's refund names the manager and the approver), filters it, and
 * downloads it as CSV. A manager reads the log and exports from a phone and sees no audit CSV button (owners only);
 * a staff member is told both pages are for owners and managers. Zero axe-core violations on each page and state,
 * at 1280 px and at 390 px. `CONSOLE_SCREENSHOTS=1` writes audit-log.png and exports.png to docs/console/.
 */
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { launchChromium } from '../support/chromium.ts';
import { appFixture } from '../support/fixtures.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { staffFixture } from '../support/staff.ts';
import { axeViolations, closeConsoleBrowser, CONSOLE_PASSWORD, consoleSignIn, PAGE_TEST, scrollWidth, shot } from './browser.ts';

const api = useTestApi();
/** The register's User-Agent on the refunds sent through the API: the log says where a change came from. */
const REGISTER_AGENT = 'LevelUp-POS/3.2';

const ORDERS_HEADER =
  'order_uuid,created_at,location_id,state,spend_amount,tip_amount,tax_amount,exemption_amount,applied_discount_amount,gift_card_total_amount,charged_amount,credit_earned_amount,refunded_at,cashier,register,identifier_from_merchant';
const LEDGER_HEADER = 'created_at,account,entry_id,kind,amount,contra_account,transfer_id,reference';
const AUDIT_HEADER = 'id,created_at,action,actor,staff_id,role,object_type,object_id,approved_by_staff_id,source_ip,user_agent,request_id,before,after';

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let world: OrderWorld;
let merchantId: number;
type Person = { email: string; password: string; staffId: number; token: string };
let owner: Person;
let manager: Person;
let cashier: Person;
/** Today's orders: refunded by the manager, refunded by the owner, completed. */
let orders: { byManager: string; byOwner: string; completed: string };

const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

async function completedOrder(spendAmount: number): Promise<string> {
  const placed = await placeOrder(api, world, { spend_amount: spendAmount, tip_amount: 200 });
  expect(placed.status, placed.text).toBe(200);
  return placed.body.order.uuid as string;
}

async function refundThroughApi(uuid: string, token: string): Promise<void> {
  const refunded = await api.call('POST', `/v15/merchants/${merchantId}/orders/${uuid}/refund`, {
    token,
    headers: { 'Idempotency-Key': randomUUID(), 'User-Agent': REGISTER_AGENT },
  });
  expect(refunded.status, refunded.text).toBe(200);
}

beforeAll(async () => {
  const launched = launchChromium('console-exports');
  const [{ apiKey, app }, made] = await Promise.all([appFixture(), orderWorld()]);
  world = made;
  merchantId = world.merchant.merchant.merchant_id;
  // The console's config.json names the app staff sign in through (scripts/local/console-files.ts).
  process.env.CONSOLE_API_KEY = apiKey;
  const person = async (role: 'owner' | 'manager' | 'staff', password: string): Promise<Person> => {
    const fixture = await staffFixture(app.app_id, merchantId, role, { password });
    return { email: fixture.email, password, staffId: fixture.staffId, token: fixture.token };
  };
  [owner, manager, cashier] = await Promise.all([
    person('owner', CONSOLE_PASSWORD.owner),
    person('manager', CONSOLE_PASSWORD.manager),
    person('staff', CONSOLE_PASSWORD.staff),
  ]);
  orders = { byManager: await completedOrder(1500), byOwner: await completedOrder(1000), completed: await completedOrder(700) };
  await refundThroughApi(orders.byManager, manager.token);
  await refundThroughApi(orders.byOwner, owner.token);
  chromium = await launched;
});

afterAll(() => closeConsoleBrowser(chromium));

const signedInAt = consoleSignIn(() => ({ browser: chromium.browser, baseUrl: api.baseUrl }));

/** Clicks `button` and answers the file the browser saved: its suggested name and its text. */
async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const download: Download = await saved;
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

const csvLines = (text: string) => text.split('\r\n').filter((line) => line !== '');
const auditTable = (page: Page) => page.getByRole('region', { name: /^Audit log entries .* page 1$/ });
const refundRow = (page: Page, uuid: string) =>
  auditTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `Order ${uuid.slice(0, 8)}` }) });

/** The audit log's filters (scoped: the table's caption names the filter too). */
const auditFilters = (page: Page) => page.getByRole('form', { name: 'Filter the audit log' });
/** Chromium's console line for an answer the page expected to be refused, and showed in words. */
const REFUSED_LINE = 'console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)';

async function fillRange(page: Page, from: string, to: string): Promise<void> {
  await page.getByLabel('From (UTC day)').fill(from);
  await page.getByLabel('To (UTC day, included)').fill(to);
}

describe("the console's exports and audit log", () => {
  it("an owner downloads today's orders and ledger CSVs, and is told in words when the API refuses a range", PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(1280, '/exports', owner, 'Exports');
    expect(await page.title()).toBe('Exports · Merchant console');
    expect(await axeViolations(page)).toEqual([]);

    await fillRange(page, today(), today());
    const ordersFile = await downloaded(page, 'Download the orders CSV');
    expect(ordersFile.name).toBe(`orders-${today()}-${today()}.csv`);
    const [header, ...rows] = csvLines(ordersFile.text);
    expect(header).toBe(ORDERS_HEADER);
    const states = new Map(rows.map((row) => [row.split(',')[0], row.split(',')[3]]));
    expect(states).toEqual(
      new Map([
        [orders.byManager, 'refunded'],
        [orders.byOwner, 'refunded'],
        [orders.completed, 'completed'],
      ]),
    );
    // The outcome has the focus and a link to save the same file again.
    const outcome = page.getByRole('status').filter({ hasText: `Downloaded orders-${today()}-${today()}.csv` });
    await outcome.waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.className)).toBe('download-outcome');
    expect(await outcome.getByRole('link', { name: `save orders-${today()}-${today()}.csv again` }).getAttribute('href')).toMatch(/^blob:/);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'exports');

    const ledgerFile = await downloaded(page, 'Download the ledger CSV');
    expect(ledgerFile.name).toBe(`ledger-${today()}-${today()}.csv`);
    const ledger = csvLines(ledgerFile.text);
    expect(ledger[0]).toBe(LEDGER_HEADER);
    // The three card charges and the two card refunds, at least (every order's movements are the merchant's).
    expect(ledger.filter((line) => line.includes(',card_charge,')).length).toBe(3);
    expect(ledger.filter((line) => line.includes(',card_refund,')).length).toBe(2);

    // More than 92 days: the API refuses (422) and the page says which end and what to do, with the request id.
    await fillRange(page, daysBefore(120), today());
    await page.getByRole('button', { name: 'Download the orders CSV' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /^This range was refused: the end day must be at most 92 days after from \(both included\)\. Choose a start and an end day at most 92 days apart, the end not before the start\.Reference for support: \S+$/,
    );
    expect(await axeViolations(page)).toEqual([]);
    // The one refused request is all the browser reported (no CSP report, no error thrown).
    expect(problems).toEqual([REFUSED_LINE]);
    await page.close();
  });

  it("an owner reads the audit log: the manager's refund names the manager and the approver; filtered, then downloaded as CSV", PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(1280, '/audit_log', owner, 'Audit log');
    expect(await page.title()).toBe('Audit log · Merchant console');
    const table = auditTable(page);
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['When', 'Who', 'What', 'Approved by', 'From', 'Before and after']);
    const row = refundRow(page, orders.byManager);
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'Test manager (manager)',
      `Refunded an orderOrder ${orders.byManager.slice(0, 8)}`,
      'Test manager (manager)',
      expect.stringMatching(new RegExp(`^A register or app \\(${REGISTER_AGENT.replace('.', '\\.')}\\)Address \\S+Request \\S+$`)),
      expect.stringContaining('state: completed → refunded'),
    ]);
    expect(await refundRow(page, orders.byOwner).getByRole('cell').first().textContent()).toBe('Test owner (owner)');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'audit-log');

    // The manager's refunds only: what they did or approved. The filters are in the address.
    await auditFilters(page).getByLabel('Action').selectOption('order.refunded');
    await auditFilters(page).getByLabel('Staff member (did or approved)').selectOption(String(manager.staffId));
    await page.getByRole('button', { name: 'Show entries' }).click();
    const filtered = page.getByRole('region', { name: /“Refunded an order”, done or approved by Test manager \(manager\), newest first, page 1$/ });
    await filtered.waitFor();
    expect(await filtered.getByRole('row').count()).toBe(2);
    expect(await filtered.getByRole('link').textContent()).toBe(`Order ${orders.byManager.slice(0, 8)}`);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      from: daysBefore(29),
      to: today(),
      action: 'order.refunded',
      staff: String(manager.staffId),
    });

    // The CSV of the same filter.
    const file = await downloaded(page, 'Download CSV');
    expect(file.name).toBe(`audit-log-${daysBefore(29)}-${today()}.csv`);
    const [header, ...rows] = csvLines(file.text);
    expect(header).toBe(AUDIT_HEADER);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`,order.refunded,staff,${manager.staffId},manager,order,${orders.byManager},${manager.staffId},`);
    await page.getByRole('status').filter({ hasText: 'Downloaded audit-log-' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // A filter nothing matches says so.
    await auditFilters(page).getByLabel('Action').selectOption('campaign.closed');
    await page.getByRole('button', { name: 'Show entries' }).click();
    await page.getByText('No entries for this filter.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The CSV needs both ends of the range: the page says so before asking.
    await auditFilters(page).getByLabel('From (UTC day)').fill('');
    await page.getByRole('button', { name: 'Show entries' }).click();
    await page.getByText('No entries for this filter.').waitFor();
    expect(new URL(page.url()).searchParams.get('from')).toBe('');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Choose a start day and an end day, at most 92 days apart, to download the CSV.');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('at 390 px a manager reads the log (no CSV button: owners only) and downloads an export; staff are told both are not theirs', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(390, '/audit_log', manager, 'Audit log');
    await refundRow(page, orders.byManager).waitFor();
    expect(await page.getByRole('button', { name: 'Download CSV' }).count()).toBe(0);
    await page.getByText('Owners can download the audit log as a CSV file.').waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    // The API agrees: the audit CSV is the owner's.
    const refused = await api.call('GET', `/v15/merchants/${merchantId}/audit_log.csv?from=${today()}&to=${daysBefore(-1)}`, { token: manager.token });
    expect(refused.status).toBe(403);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Exports' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await fillRange(page, today(), today());
    const file = await downloaded(page, 'Download the orders CSV');
    expect(csvLines(file.text)).toHaveLength(4);
    await page.getByRole('status').filter({ hasText: 'Downloaded orders-' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await fillRange(page, today(), daysBefore(1));
    await page.getByRole('button', { name: 'Download the ledger CSV' }).click();
    await page.getByRole('alert').filter({ hasText: 'This range was refused: the end day must not be before from.' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([REFUSED_LINE]);
    await page.close();

    const staff = await signedInAt(390, '/audit_log', cashier, 'Audit log');
    await staff.page.getByText('The audit log is for owners and managers.').waitFor();
    expect(await staff.page.getByRole('table').count()).toBe(0);
    expect(await axeViolations(staff.page)).toEqual([]);
    await staff.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exports' }).click();
    await staff.page.getByText('Exports are for owners and managers.').waitFor();
    expect(await staff.page.getByRole('button', { name: /Download/ }).count()).toBe(0);
    expect(await axeViolations(staff.page)).toEqual([]);
    expect(staff.problems).toEqual([]);
    await staff.page.close();
  });
});
