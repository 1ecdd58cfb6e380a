/**
 * The console's orders pages in headless Chromium against the local stack (docs/console.md, issue 39), told as the
 * issue's acceptance: the owner signs in and invites a manager on the Staff page; the manager sets a password through
 * the mailed link, signs in, sets their own manager code on the Staff page, finds an order the POS completed and
 * refunds it with that code (the merchant requires one: the confirmation asks for it, a code not theirs is refused);
 * the order and the audit log name the manager as the approver. A staff member is told before trying that refunds
 * and the staff list are for owners and managers (the API answers them 403). Each page has zero axe-core violations
 * at 1280 px and at 390 px. `CONSOLE_SCREENSHOTS=1` writes staff.png, orders.png and order.png to docs/console/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.ts';
import { mailTo, resetLinkIn } from '../support/mailbox.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { staffEmail, staffFixture } from '../support/staff.ts';
import { useMailingTestApi } from '../support/webhooks.ts';
import { axeViolations, closeConsoleBrowser, CONSOLE_PASSWORD, consoleSignIn, PAGE_TEST, scrollWidth, shot } from './browser.ts';

// The invite mail goes out from the table's stream, after the answer.
const mailing = useMailingTestApi();
const { api } = mailing;

/** The register's shared code: the merchant requires a code, so the console's refund asks for the manager's own. */
const REGISTER_CODE = '8642';
/** The managers' own codes (no id, amount or time of this file contains them). */
const MANAGER_CODE = '73925184';
const PHONE_MANAGER_CODE = '61937';

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let world: OrderWorld;
let merchantId: number;
let owner: { email: string; token: string };
let phoneManager: { email: string; password: string };
let cashier: { email: string; token: string };

const today = () => new Date().toISOString().slice(0, 10);
const refundPath = (uuid: string) => `/v15/merchants/${merchantId}/orders/${uuid}/refund`;
const detailsPath = (uuid: string) => `/v15/merchants/${merchantId}/orders/${uuid}/details`;

/** An order completed through the POS API with the merchant's shared login: 15.00 and a 2.00 tip. */
async function completedOrder(): Promise<string> {
  const placed = await placeOrder(api, world, { spend_amount: 1500, tip_amount: 200 });
  expect(placed.status, placed.text).toBe(200);
  return placed.body.order.uuid as string;
}

beforeAll(async () => {
  const launched = launchChromium('console-orders');
  world = await orderWorld({ managerConfirmation: REGISTER_CODE });
  merchantId = world.merchant.merchant.merchant_id;
  // The console's config.json names the app staff sign in through (scripts/local/console-files.ts).
  process.env.CONSOLE_API_KEY = mailing.app.apiKey;
  const ownerMember = await staffFixture(mailing.app.app.app_id, merchantId, 'owner', { password: CONSOLE_PASSWORD.owner });
  owner = { email: ownerMember.email, token: ownerMember.token };
  const staff = await staffFixture(mailing.app.app.app_id, merchantId, 'staff', { password: CONSOLE_PASSWORD.staff });
  cashier = { email: staff.email, token: staff.token };
  // A second manager, whose code is set through the API, refunds from a phone.
  const phone = await staffFixture(mailing.app.app.app_id, merchantId, 'manager', { password: CONSOLE_PASSWORD.manager });
  const set = await api.call('PUT', `/v15/merchants/${merchantId}/staff/me/manager_code`, {
    token: phone.token,
    body: { manager_code: { code: PHONE_MANAGER_CODE } },
  });
  expect(set.status, set.text).toBe(204);
  phoneManager = { email: phone.email, password: CONSOLE_PASSWORD.manager };
  chromium = await launched;
});

afterAll(() => closeConsoleBrowser(chromium));

const signedInAt = consoleSignIn(() => ({ browser: chromium.browser, baseUrl: api.baseUrl }));

/** How the browser logs a refused request (the 422s the refund's code step expects); any other problem fails. */
const REFUSED = 'console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)';

const ordersTable = (page: Page) => page.getByRole('region', { name: /at .* on .* \(UTC\), page 1$/ });

describe("the console's orders pages", () => {
  it(
    'the owner invites a manager on the Staff page; the manager sets their code there and refunds an order with it; the audit log names them',
    PAGE_TEST,
    async () => {
      const uuid = await completedOrder();

      // The owner signs in on the Staff page and invites the manager.
      const ownerTab = await signedInAt(1280, '/staff', { email: owner.email, password: CONSOLE_PASSWORD.owner }, 'Staff');
      const staffTable = ownerTab.page.getByRole('region', { name: /^People at this merchant/ });
      await staffTable.waitFor();
      expect(await staffTable.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Email', 'Role', 'State']);
      const email = staffEmail('manager');
      await ownerTab.page.getByLabel('Name').fill('Morgan Manager');
      await ownerTab.page.getByLabel('Email').fill(email);
      await ownerTab.page.getByLabel('Role').selectOption('manager');
      await ownerTab.page.getByRole('button', { name: 'Send the invite' }).click();
      await ownerTab.page.getByRole('status').filter({ hasText: 'Morgan Manager is invited as manager.' }).waitFor();
      const invitedRow = staffTable.getByRole('row').filter({ hasText: email });
      await invitedRow.waitFor();
      expect(await invitedRow.getByRole('cell').allTextContents()).toEqual([email, 'Manager', 'Invited']);
      expect(await axeViolations(ownerTab.page)).toEqual([]);
      await shot(ownerTab.page, 'staff');
      expect(ownerTab.problems).toEqual([]);
      await ownerTab.page.close();

      // The manager sets a first password through the mailed link (the invite's own machinery).
      const [mail] = await mailTo(email);
      const secret = new URL(resetLinkIn(mail!)).hash.slice('#token='.length);
      const set = await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: secret, password: CONSOLE_PASSWORD.manager } } });
      expect(set.status, set.text).toBe(204);
      const listed = await api.call('GET', `/v15/merchants/${merchantId}/staff`, { token: owner.token });
      const manager = listed.body.map((entry: any) => entry.staff).find((member: any) => member.email === email);
      expect(manager).toMatchObject({ name: 'Morgan Manager', role: 'manager', status: 'active' });

      // The manager signs in on the Staff page and sets their own manager code (typed twice, hidden, never shown back).
      const { page, problems } = await signedInAt(1280, '/staff', { email, password: CONSOLE_PASSWORD.manager }, 'Staff');
      await page.getByText('Only owners invite people, change roles or remove someone.').waitFor();
      expect(await page.getByRole('button', { name: 'Send the invite' }).count()).toBe(0);
      const codeField = page.getByLabel('New manager code (4 to 8 digits)');
      expect(await codeField.getAttribute('type')).toBe('password');
      await codeField.fill(MANAGER_CODE);
      await page.getByLabel('The same code again').fill(MANAGER_CODE);
      await page.getByRole('button', { name: 'Set my manager code' }).click();
      await page.getByRole('status').filter({ hasText: 'Your manager code is set.' }).waitFor();
      expect(await codeField.inputValue()).toBe('');
      expect(await page.content()).not.toContain(MANAGER_CODE);
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      expect(await page.title()).toBe('Orders · Merchant console');
      await expect.poll(() => page.getByRole('banner').textContent()).toContain('Morgan Manager (manager)');
      expect(await page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]').allTextContents()).toEqual(['Orders']);

      // Today (UTC) at the merchant's one location, by default.
      expect(await page.getByLabel('Day (UTC)').inputValue()).toBe(today());
      const table = ordersTable(page);
      await table.waitFor();
      expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Time', 'Customer', 'Sale', 'Tip', 'Total', 'State']);
      const rows = table.getByRole('row');
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(1).getByRole('cell').allTextContents()).toEqual([expect.any(String), '$15.00', '$2.00', '$17.00', 'Completed']);
      // The API links a next page after every page and answers 204 past the end: next, then back.
      expect(await page.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByText('No more orders.').waitFor();
      expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Previous page' }).click();
      await ordersTable(page).waitFor();
      expect(await ordersTable(page).getByRole('row').count()).toBe(2);
      expect(await page.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'orders');

      await rows.nth(1).getByRole('link').click();
      await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
      expect(page.url()).toBe(`${api.baseUrl}/console/orders/${uuid}`);
      // The order's own reference, once its detail has loaded.
      await page.getByText(uuid).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // Confirmation first: nothing is refunded until the manager says yes.
      await page.getByRole('button', { name: 'Refund this order' }).click();
      await page.getByText('Refund $17.00 to').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect((await api.call('GET', detailsPath(uuid), { token: owner.token })).body.order.state).toBe('completed');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Refund this order' }).click();
      await page.getByRole('button', { name: 'Yes, refund $17.00' }).click();
      // The merchant requires a code: the API asks for the manager's own, and the confirmation asks for it, focused.
      const ownCode = page.getByLabel('Your manager code');
      await ownCode.waitFor();
      await expect.poll(() => ownCode.evaluate((field) => field === (globalThis as any).document.activeElement)).toBe(true);
      expect(await ownCode.getAttribute('type')).toBe('password');
      expect((await api.call('GET', detailsPath(uuid), { token: owner.token })).body.order.state).toBe('completed');
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'order');
      // The register's shared code is not the manager's own: refused, nothing refunded, asked again.
      await ownCode.fill(REGISTER_CODE);
      await page.getByRole('button', { name: 'Yes, refund $17.00' }).click();
      await page.getByRole('alert').filter({ hasText: 'That is not your manager code.' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect((await api.call('GET', detailsPath(uuid), { token: owner.token })).body.order.state).toBe('completed');
      await ownCode.fill(MANAGER_CODE);
      await page.getByRole('button', { name: 'Yes, refund $17.00' }).click();
      await page.getByRole('status').filter({ hasText: 'The order is refunded.' }).waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'The order is refunded.' }).textContent()).toContain('Approved by you.');
      expect(await page.getByRole('heading', { level: 2, name: 'Refunded' }).count()).toBe(1);
      // Focus lands on the outcome, so a keyboard or screen-reader user reads it next.
      await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Refunded');
      expect(await page.content()).not.toContain(MANAGER_CODE);
      expect(await axeViolations(page)).toEqual([]);

      // The list shows it refunded, and so does the "refunded" filter.
      await page.getByRole('link', { name: 'Back to the orders' }).click();
      await ordersTable(page).waitFor();
      expect(await ordersTable(page).getByRole('row').nth(1).getByRole('cell').last().textContent()).toBe('Refunded');
      await page.getByLabel('State').selectOption('refunded');
      await page.getByRole('button', { name: 'Show orders' }).click();
      await page.getByRole('region', { name: /^Refunded orders at .* page 1$/ }).waitFor();
      expect(new URL(page.url()).searchParams.get('state')).toBe('refunded');
      await page.getByLabel('State').selectOption('completed');
      await page.getByRole('button', { name: 'Show orders' }).click();
      await page.getByText(/^No orders at .* for this filter\.$/).waitFor();
      // The browser logs each refused request: the API asking for the code, then refusing the shared one; nothing else.
      expect(problems).toEqual([REFUSED, REFUSED]);
      await page.close();

      // The API agrees: refunded once, approved by the manager, in the order and in the audit log the owner reads.
      const detail = await api.call('GET', detailsPath(uuid), { token: owner.token });
      expect(detail.body.order).toMatchObject({ state: 'refunded', refund: { approved_by_staff_id: manager.id } });
      const audit = await api.call('GET', `/v15/merchants/${merchantId}/audit_log`, { token: owner.token });
      expect(audit.status, audit.text).toBe(200);
      const refunds = audit.body.map((entry: any) => entry.audit_entry).filter((entry: any) => entry.action === 'order.refunded');
      expect(refunds).toEqual([
        expect.objectContaining({
          actor: expect.objectContaining({ staff_id: manager.id, role: 'manager' }),
          approved_by_staff_id: manager.id,
          object: { type: 'order', id: uuid },
        }),
      ]);
    },
  );

  it('at 390 px a staff member reads the list and an order, is told refunds are for owners and managers, and the API agrees', PAGE_TEST, async () => {
    const uuid = await completedOrder();
    const { page, problems } = await signedInAt(390, '/orders', { email: cashier.email, password: CONSOLE_PASSWORD.staff }, 'Orders');
    const table = ordersTable(page);
    await table.getByRole('link').first().waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${api.baseUrl}/console/orders/${uuid}`);
    // A reload keeps the session (sessionStorage) and opens the same page.
    await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
    await page.getByText('Refunds are for owners and managers.').waitFor();
    expect(await page.getByRole('button', { name: /Refund/ }).count()).toBe(0);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    // The Staff page says what the role may not do, before trying (the API answers the list 403).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' }).click();
    await page.getByText('The staff list is for owners and managers.').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    // Home shows no figures to staff (the API answers the daily report 403) and says so, reading nothing.
    const reportReads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.includes('/reports/')) reportReads.push(request.url());
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await page.getByText('Sales figures are for owners and managers.').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(reportReads).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
    expect((await api.call('GET', `/v15/merchants/${merchantId}/staff`, { token: cashier.token })).status).toBe(403);
    expect((await api.call('GET', `/v15/merchants/${merchantId}/reports/daily`, { token: cashier.token })).status).toBe(403);

    const refused = await api.call('POST', refundPath(uuid), { token: cashier.token });
    expect(refused.status).toBe(403);
    expect((await api.call('GET', detailsPath(uuid), { token: owner.token })).body.order.state).toBe('completed');
  });

  it('at 390 px a manager refunds from the phone with their own code: no violation and no sideways scrolling at each step', PAGE_TEST, async () => {
    const uuid = await completedOrder();
    const { page, problems } = await signedInAt(390, `/orders/${uuid}`, phoneManager, 'Order');
    await page.getByRole('button', { name: 'Refund this order' }).click();
    await page.getByRole('button', { name: 'Yes, refund $17.00' }).click();
    await page.getByLabel('Your manager code').waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Your manager code').fill(PHONE_MANAGER_CODE);
    await page.getByRole('button', { name: 'Yes, refund $17.00' }).click();
    await page.getByText('Approved by you.').waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    // The one refused request the browser logs: the API asking for the code (this tab had not been asked yet).
    expect(problems).toEqual([REFUSED]);
    await page.close();
  });
});
