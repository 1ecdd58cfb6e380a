/**
 * The console's customers and gift cards pages in headless Chromium against the local stack (docs/console.md,
 * issue 39). The customer is registered through the app API with a phone, and given gift card value, credit and
 * loyalty progress by the merchant's POS routes. A manager finds them by email, reads their balances and progress,
 * grants $5.00 of credit through a confirmation (clicked twice: granted once, as the API's view and the audit log
 * agree) and unlocks a locked campaign; a phone two customers share is refused in words. A staff member at 390 px
 * finds the customer by phone and is told, with no button, that grants are for owners and managers (the API answers
 * them 403). The gift cards page shows the value the POS loaded, per day and location, and the liability. Zero
 * axe-core violations on every page and state at 1280 px and 390 px. `CONSOLE_SCREENSHOTS=1` writes customers.png,
 * customer.png and gift-cards.png to docs/console/.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.ts';
import { posCredit, registerWithPhone } from '../support/customers.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { loadGiftCard } from '../support/money.ts';
import { staffFixture } from '../support/staff.ts';
import { useMailingTestApi } from '../support/webhooks.ts';
import { axeViolations, closeConsoleBrowser, CONSOLE_PASSWORD, consoleSignIn, PAGE_TEST, scrollWidth, shot } from './browser.ts';

// The daily report is counted by the table's stream: the file runs the event pipeline.
const mailing = useMailingTestApi();
const { api } = mailing;

const CUSTOMER_PHONE = '(617) 555-0142';
const SHARED_PHONE = '(617) 555-0199';
const GIFT_CARD_CENTS = 2500;
const CREDIT_CENTS = 700;
const PROGRESS_CENTS = 1200;

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let merchantId: number;
let merchantToken: string;
let locationName: string;
let ownerToken: string;
let manager: { id: number; email: string };
let cashier: { email: string; token: string };
let customer: { id: number; email: string };
let lockedTitle: string;
let spendTitle: string;

const today = () => new Date().toISOString().slice(0, 10);
const customerPath = () => `/v15/merchants/${merchantId}/customers/${customer.id}`;

/** A user registered through the app API (POST /v15/users) with `phone`, and a user token of theirs. */
const register = (phone: string) => registerWithPhone(api, mailing.app, phone, { first_name: 'Casey', last_name: 'Customer', emailPrefix: 'customer' });

/** Merchant-funded credit by email, as the POS grants it (the merchant's shared login). */
const grantCredit = (email: string, value: number) => posCredit(api, merchantToken, merchantId, email, value);

beforeAll(async () => {
  const launched = launchChromium('console-customers');
  const appId = mailing.app.app.app_id;
  // The console's config.json names the app staff sign in through (scripts/local/console-files.ts).
  process.env.CONSOLE_API_KEY = mailing.app.apiKey;
  const merchant = await merchantFixture(appId);
  merchantId = merchant.merchant.merchant_id;
  merchantToken = merchant.token;
  const location = await locationFixture(merchantId, { name: 'Harbour Street' });
  locationName = location.name ?? '';
  const [spend, locked] = await Promise.all([
    campaignFixture(merchantId, 'spend'),
    campaignFixture(merchantId, 'spend', { locked: true, title: 'Members only' }),
  ]);
  spendTitle = spend.title;
  lockedTitle = locked.title;

  // The customer, through the app API; their standing here through the POS routes.
  const registered = await register(CUSTOMER_PHONE);
  customer = { id: registered.userId, email: registered.email };
  const qr = await api.call('GET', '/v15/payment_token', { token: registered.token });
  expect(qr.status, qr.text).toBe(200);
  const loaded = await loadGiftCard(api, merchantToken, merchantId, {
    payment_token_data: qr.body.payment_token.data,
    value_amount: GIFT_CARD_CENTS,
    location_id: location.location_id,
  });
  expect(loaded.status, loaded.text).toBe(200);
  await grantCredit(customer.email, CREDIT_CENTS);
  const adjusted = await api.call('POST', '/v15/progress_adjustments', {
    authorization: `token merchant="${merchantToken}"`,
    body: { progress_adjustment: { campaign_id: spend.campaign_id, user_id: customer.id, adjustment: PROGRESS_CENTS } },
  });
  expect([200, 204], adjusted.text).toContain(adjusted.status);
  // Two customers of this merchant share a phone: looking it up is refused.
  for (const household of [await register(SHARED_PHONE), await register(SHARED_PHONE)]) await grantCredit(household.email, 100);

  const [owner, managerMember, staffMember] = await Promise.all([
    staffFixture(appId, merchantId, 'owner'),
    staffFixture(appId, merchantId, 'manager', { password: CONSOLE_PASSWORD.manager }),
    staffFixture(appId, merchantId, 'staff', { password: CONSOLE_PASSWORD.staff }),
  ]);
  ownerToken = owner.token;
  manager = { id: managerMember.staffId, email: managerMember.email };
  cashier = { email: staffMember.email, token: staffMember.token };
  chromium = await launched;
});

afterAll(() => closeConsoleBrowser(chromium));

const signedInAt = consoleSignIn(() => ({ browser: chromium.browser, baseUrl: api.baseUrl }));

/** A fact of a definition list (`<dt>` then `<dd>`), as shown. */
const fact = (page: Page, term: string) => page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]').textContent();

/** Looks a customer up on the find page: by email or phone, the value typed as given. */
async function findBy(page: Page, by: 'Email' | 'Phone', value: string) {
  await page.getByRole('radio', { name: by }).check();
  await page.getByLabel(by === 'Email' ? "Customer's email" : "Customer's phone number").fill(value);
  await page.getByRole('button', { name: 'Find the customer' }).click();
}

/** What Chromium logs for an answer the page expected to be refused (the lookup's 404 or 422). */
const refusedRequest = (status: number, text: string) => `console: Failed to load resource: the server responded with a status of ${status} (${text})`;

const apiCustomer = async () => {
  const shown = await api.call('GET', customerPath(), { token: ownerToken });
  expect(shown.status, shown.text).toBe(200);
  return shown.body.customer;
};

describe("the console's customers and gift cards pages", () => {
  it('a manager finds the customer by email, reads balances and progress, grants $5.00 once (two clicks) and unlocks a campaign', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(1280, '/customers', { email: manager.email, password: CONSOLE_PASSWORD.manager }, 'Customers');
    expect(await page.title()).toBe('Customers · Merchant console');
    expect(await page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]').allTextContents()).toEqual(['Customers']);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'customers');

    // Nobody with this email: said in words, the page stays.
    await findBy(page, 'Email', `nobody-${randomUUID()}@example.com`);
    await page.getByRole('alert').filter({ hasText: 'None of your customers has this email.' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Reference for support:');
    expect(await axeViolations(page)).toEqual([]);

    // The email in any case finds them; it rides in the history entry, not the address.
    await findBy(page, 'Email', customer.email.toUpperCase());
    await page.getByRole('heading', { level: 1, name: 'Customer', exact: true }).waitFor();
    expect(page.url()).toBe(`${api.baseUrl}/console/customers/${customer.id}`);
    await page.getByRole('heading', { level: 2, name: 'Balances here' }).waitFor();
    expect(await fact(page, 'Customer number')).toBe(String(customer.id));
    expect(await fact(page, 'Found by email')).toBe(customer.email.toUpperCase());
    expect(await fact(page, 'Credit they can use')).toBe('$7.00');
    expect(await fact(page, 'Gift card value')).toBe('$25.00');
    const progress = page.getByRole('region', { name: 'Loyalty progress per campaign' });
    expect(await progress.getByRole('columnheader').allTextContents()).toEqual(['Campaign', 'Kind', 'Progress', 'Standing']);
    expect(await progress.getByRole('row').nth(1).getByRole('rowheader').textContent()).toBe(spendTitle);
    expect(await progress.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['Spend', '$12.00 of $50.00', 'Collecting']);
    expect(await axeViolations(page)).toEqual([]);

    // An amount the API would refuse is caught on the form, in words, before anything is sent.
    await page.getByLabel('Amount in dollars').fill('600');
    await page.getByLabel('Reason (kept with the grant)').fill('Sorry about the wait');
    await page.getByRole('button', { name: 'Review the grant' }).click();
    await page.getByText('Type an amount in dollars from $0.01 to $500.00').waitFor();
    expect(await page.getByLabel('Amount in dollars').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);

    // The confirmation first: nothing is granted until the manager says yes; Cancel keeps what was typed.
    await page.getByLabel('Amount in dollars').fill('5.00');
    await page.getByRole('button', { name: 'Review the grant' }).click();
    const confirm = page.getByRole('button', { name: 'Yes, grant $5.00' });
    await confirm.waitFor();
    expect(await page.getByText(`Grant $5.00 of credit to customer ${customer.id}, lasting 1 year?`).count()).toBe(1);
    await expect.poll(() => confirm.evaluate((button: any) => button === button.ownerDocument.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect((await apiCustomer()).credit_amount).toBe(CREDIT_CENTS);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByLabel('Amount in dollars').inputValue()).toBe('5.00');
    await page.getByRole('button', { name: 'Review the grant' }).click();

    // Two clicks on the same confirmation, in one task (before React renders again): one grant.
    await confirm.evaluate((button: any) => {
      button.click();
      button.click();
    });
    const granted = page.getByRole('status').filter({ hasText: 'Granted $5.00' });
    await granted.waitFor();
    expect(await granted.textContent()).toContain("The customer's credit here is now $12.00.");
    await expect.poll(() => granted.evaluate((element: any) => element === element.ownerDocument.activeElement)).toBe(true);
    expect(await fact(page, 'Credit they can use')).toBe('$12.00');
    expect((await apiCustomer()).credit_amount).toBe(CREDIT_CENTS + 500);
    const audit = await api.call('GET', `/v15/merchants/${merchantId}/audit_log?action=credit.granted`, { token: ownerToken });
    expect(audit.status, audit.text).toBe(200);
    const managersGrants = audit.body.map((entry: any) => entry.audit_entry).filter((entry: any) => entry.actor?.staff_id === manager.id);
    expect(managersGrants).toEqual([expect.objectContaining({ approved_by_staff_id: manager.id, after: expect.objectContaining({ value_amount: 500 }) })]);
    expect(await axeViolations(page)).toEqual([]);

    // Unlocking the locked campaign: it shows in their progress as unlocked, and the API agrees.
    await page.getByLabel(/^Campaign/).selectOption({ label: lockedTitle });
    await page.getByRole('button', { name: 'Unlock for this customer' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Unlocked “${lockedTitle}” for this customer, with no end.` })
      .waitFor();
    const lockedRow = progress.getByRole('row').filter({ has: page.getByRole('rowheader', { name: lockedTitle }) });
    await lockedRow.waitFor();
    expect(await lockedRow.getByRole('cell').last().textContent()).toBe('Unlocked');
    expect((await apiCustomer()).campaigns).toEqual(
      expect.arrayContaining([expect.objectContaining({ title: lockedTitle, unlocked: true, unlocked_until: null })]),
    );
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'customer');
    // The refused lookup is the only request the browser reports (its 404); nothing else failed or was blocked.
    expect(problems).toEqual([refusedRequest(404, 'Not Found')]);
    await page.close();
  });

  it('at 390 px a phone two customers share is refused in words; the manager confirms a grant on the phone without sideways scrolling', PAGE_TEST, async () => {
    const { page, problems } = await signedInAt(390, '/customers', { email: manager.email, password: CONSOLE_PASSWORD.manager }, 'Customers');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await findBy(page, 'Phone', SHARED_PHONE);
    await page
      .getByRole('alert')
      .filter({ hasText: 'More than one of your customers has this phone number. Look the customer up by their email instead.' })
      .waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${api.baseUrl}/console/customers/${customer.id}`);
    await page.getByRole('heading', { level: 2, name: 'Balances here' }).waitFor();
    await page.getByRole('button', { name: 'Unlock for this customer' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Amount in dollars').fill('1');
    await page.getByLabel('Reason (kept with the grant)').fill('A long wait at the counter');
    await page.getByRole('button', { name: 'Review the grant' }).click();
    await page.getByRole('button', { name: 'Yes, grant $1.00' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(problems).toEqual([refusedRequest(422, 'Unprocessable Entity')]);
    await page.close();
  });

  it('at 390 px a staff member finds the customer by phone, reads their balances, sees no grant button, and the API refuses them', PAGE_TEST, async () => {
    const before = await apiCustomer();
    const { page, problems } = await signedInAt(390, '/customers', { email: cashier.email, password: CONSOLE_PASSWORD.staff }, 'Customers');
    await findBy(page, 'Phone', '+1 617-555-0142');
    await page.getByRole('heading', { level: 2, name: 'Balances here' }).waitFor();
    expect(await fact(page, 'Found by phone')).toBe('+1 617-555-0142');
    expect(await fact(page, 'Credit they can use')).toBe(dollars(before.credit_amount));
    expect(await fact(page, 'Gift card value')).toBe('$25.00');
    await page.getByText('Granting credit and unlocking campaigns are for owners and managers.').waitFor();
    expect(await page.getByRole('button', { name: /grant|unlock/i }).count()).toBe(0);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);

    // The gift card figures are the owners' and managers': the page says so, and where a customer's balance is.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gift cards' }).click();
    await page.getByRole('heading', { level: 1, name: 'Gift cards' }).waitFor();
    await page.getByText('Gift card figures are for owners and managers.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();

    const refused = await api.call('POST', `${customerPath()}/credit_grants`, {
      token: cashier.token,
      body: { credit_grant: { value_amount: 500 } },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(refused.status).toBe(403);
    expect((await apiCustomer()).credit_amount).toBe(before.credit_amount);
  });

  it('the gift cards page shows the value the POS loaded, per day and location, and the liability at the day’s end', PAGE_TEST, async () => {
    // The report is counted by the stream, within seconds of the load.
    await expect
      .poll(
        async () => {
          const report = await api.call('GET', `/v15/merchants/${merchantId}/reports/daily?from=${today()}&to=${today()}`, { token: ownerToken });
          return report.body.daily_report?.days?.[0]?.gift_card_liability_amount;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(GIFT_CARD_CENTS);

    for (const width of [1280, 390]) {
      const { page, problems } = await signedInAt(width, '/gift_cards', { email: manager.email, password: CONSOLE_PASSWORD.manager }, 'Gift cards');
      const outstanding = page.getByText(/^Your customers held/);
      await outstanding.waitFor();
      expect(await outstanding.textContent()).toBe(`Your customers held $25.00 of gift card value at the end of ${today()} (UTC), all locations.`);
      const byDay = page.getByRole('region', { name: /^Gift card activity at all locations from .* to .* \(UTC\)$/ });
      expect(await byDay.getByRole('columnheader').allTextContents()).toEqual([
        'Day',
        'Value added',
        'Value spent',
        'Value removed',
        "Outstanding at the day's end (all locations)",
      ]);
      // The last seven days (today included), by default; today's row has the load.
      expect(await byDay.locator('tbody tr').count()).toBe(7);
      const todayRow = byDay.getByRole('row').filter({ has: page.getByRole('rowheader', { name: today() }) });
      expect(await todayRow.getByRole('cell').allTextContents()).toEqual(['$25.00', '$0.00', '$0.00', '$25.00']);
      const byLocation = page.getByRole('region', { name: /^Gift card activity per location/ });
      const harbour = byLocation.getByRole('row').filter({ has: page.getByRole('rowheader', { name: locationName }) });
      expect(await harbour.getByRole('cell').allTextContents()).toEqual(['$25.00', '$0.00', '$0.00']);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      expect(await axeViolations(page)).toEqual([]);
      if (width === 1280) {
        await shot(page, 'gift-cards');
        // One location's activity: the same load; a range the API would refuse is said in words before it is sent.
        await page.getByLabel(/^Location/).selectOption({ label: locationName });
        await page.getByRole('button', { name: 'Show the figures' }).click();
        await page.getByRole('region', { name: `Gift card activity at ${locationName} from ${todayMinus(6)} to ${today()} (UTC)` }).waitFor();
        expect(new URL(page.url()).searchParams.get('location')).not.toBeNull();
        await page.getByLabel('First day (UTC)').fill(todayMinus(100));
        await page.getByRole('button', { name: 'Show the figures' }).click();
        await page.getByRole('alert').filter({ hasText: 'Choose at most 92 days (a quarter) at once.' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
      }
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});

const todayMinus = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
