/**
 * The console's Staff page in headless Chromium against the local stack (docs/console.md "Staff", issue 39): an owner
 * changes a staff member's role and removes them, each after a confirmation, and the API agrees (the old token is
 * refused, the person is gone); the only owner is told in words why their own role cannot change. Zero axe-core
 * violations on each page and state, at 1280 px and at 390 px (no sideways scrolling on a phone). The invite and
 * "My manager code" are in orders.test.ts's story.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { launchChromium } from '../support/chromium.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { staffFixture } from '../support/staff.ts';
import { axeViolations, closeConsoleBrowser, CONSOLE_PASSWORD, openPage, PAGE_TEST, scrollWidth, signedInPage, startConsole, submitSignIn } from './browser.ts';

const api = useTestApi();

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let appId: number;
let merchantId: number;
let owner: { email: string; token: string; staffId: number };

beforeAll(async () => {
  ({ chromium, appId } = await startConsole('console-staff'));
  merchantId = (await merchantFixture(appId)).merchant.merchant_id;
  const member = await staffFixture(appId, merchantId, 'owner', { password: CONSOLE_PASSWORD.owner });
  owner = { email: member.email, token: member.token, staffId: member.staffId };
});

afterAll(() => closeConsoleBrowser(chromium));

/** The owner signed in on the Staff page at `width`, its table loaded. */
async function ownerOnStaff(width: number): Promise<{ page: Page; problems: string[] }> {
  const opened = await signedInPage(chromium.browser, width, `${api.baseUrl}/console/staff`, { email: owner.email, password: CONSOLE_PASSWORD.owner }, 'Staff');
  await staffTable(opened.page).waitFor();
  return opened;
}

const staffTable = (page: Page) => page.getByRole('region', { name: /^People at this merchant/ });
const staffList = async () => {
  const listed = await api.call('GET', `/v15/merchants/${merchantId}/staff`, { token: owner.token });
  expect(listed.status, listed.text).toBe(200);
  return listed.body.map((entry: any) => entry.staff) as { id: number; email: string; role: string }[];
};

describe("the console's Staff page", () => {
  it('an owner makes a staff member a manager, then removes them, each confirmed; the only owner is told why their role stays', PAGE_TEST, async () => {
    const cashier = await staffFixture(appId, merchantId, 'staff');
    const { page, problems } = await ownerOnStaff(1280);
    expect(await page.getByText('As an owner you invite people, change their roles and remove them.').count()).toBe(1);
    const row = staffTable(page).getByRole('row').filter({ hasText: cashier.email });
    expect(await row.getByRole('cell').allTextContents()).toEqual([cashier.email, 'Staff', 'Invited']);

    await row.getByRole('link', { name: 'Test staff' }).click();
    await page.getByRole('heading', { level: 1, name: 'Test staff' }).waitFor();
    expect(page.url()).toBe(`${api.baseUrl}/console/staff/${cashier.staffId}`);
    expect(await page.title()).toBe('Staff · Merchant console');
    expect(await page.getByRole('button', { name: 'Change the role' }).isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // A role change: confirmed first, then saved; the person's old token stops working (the role is on the token).
    await page.getByLabel('New role').selectOption('manager');
    await page.getByRole('button', { name: 'Change the role' }).click();
    await page.getByText('Make Test staff manager? They will be signed out and sign in again with the new role.').waitFor();
    const yes = page.getByRole('button', { name: 'Yes, make manager' });
    await expect.poll(() => yes.evaluate((button) => button === (globalThis as any).document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect((await staffList()).find((member) => member.id === cashier.staffId)?.role).toBe('staff');
    await yes.click();
    await page.getByRole('status').filter({ hasText: 'Test staff is now manager.' }).waitFor();
    await expect.poll(() => page.locator('.facts').textContent()).toContain('Manager');
    expect(await axeViolations(page)).toEqual([]);
    expect((await staffList()).find((member) => member.id === cashier.staffId)?.role).toBe('manager');
    expect((await api.call('GET', `/v15/merchants/${merchantId}/staff/me`, { token: cashier.token })).status).toBe(401);

    // The removal: confirmed, then back on the list, which says so and no longer shows them.
    await page.getByRole('button', { name: 'Remove Test staff' }).click();
    await page.getByText('Remove Test staff from the staff? They can no longer sign in. It cannot be undone.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Yes, remove Test staff' }).click();
    await page.getByRole('status').filter({ hasText: 'Test staff is removed from the staff and can no longer sign in.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/staff');
    await expect.poll(() => staffTable(page).getByRole('row').filter({ hasText: cashier.email }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect((await staffList()).map((member) => member.id)).not.toContain(cashier.staffId);

    // The only owner: their own page says why their role cannot change, and offers neither change.
    await staffTable(page).getByRole('link', { name: 'Test owner' }).click();
    await page.getByText('You are the only owner. Make someone else an owner first').waitFor();
    expect(await page.getByRole('button', { name: /Remove|Change the role/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('at 390 px the list, a person and the confirmation fit the phone with no violation; a manager reads a person without changes', PAGE_TEST, async () => {
    const manager = await staffFixture(appId, merchantId, 'manager', { password: 'console staff manager password 1' });
    const { page, problems } = await ownerOnStaff(390);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await staffTable(page).getByRole('link', { name: 'Test manager' }).click();
    await page.getByRole('heading', { level: 1, name: 'Test manager' }).waitFor();
    await page.getByRole('button', { name: 'Remove Test manager' }).click();
    await page.getByRole('button', { name: 'Yes, remove Test manager' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Remove Test manager' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
    expect((await staffList()).map((member) => member.id)).toContain(manager.staffId);

    // The manager reads the same page: no change offered, and why.
    const managerTab = await openPage(chromium.browser, 390);
    await managerTab.page.goto(`${api.baseUrl}/console/staff/${owner.staffId}`);
    await submitSignIn(managerTab.page, manager.email, 'console staff manager password 1');
    await managerTab.page.getByRole('heading', { level: 1, name: 'Test owner' }).waitFor();
    await managerTab.page.getByText('Only owners change roles or remove someone.').waitFor();
    expect(await managerTab.page.getByRole('button', { name: /Remove|Change the role/ }).count()).toBe(0);
    expect(await scrollWidth(managerTab.page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(managerTab.page)).toEqual([]);
    expect(managerTab.problems).toEqual([]);
    await managerTab.page.close();
  });
});
