/**
 * The password-reset round trip as a person does it, in Chromium: POST /v14/passwords, the email in the
 * SES v2 emulator, its link opened in the browser, a new password set on the API's own page; then the new
 * password logs in, the old one and every other token of the account fail, and the link works once.
 */
import { setStoredAttributes } from '../support/stored-items.ts';
import { type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#shared/db/keys.ts';
import { sha256 } from '#shared/auth/secrets.ts';
import { useTestApi } from '../support/api.ts';
import { launchChromium } from '../support/chromium.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { mailTo, resetLinkIn } from '../support/mailbox.ts';
import { startEventPipeline } from '../support/webhooks.ts';

const api = useTestApi();
let app: Awaited<ReturnType<typeof appFixture>>;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: BrowserContext;
// The reset email is composed and sent from the table's stream, after the answer.
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;

beforeAll(async () => {
  pipeline = await startEventPipeline(api);
  app = await appFixture();
  chromium = await launchChromium('password-reset');
  browser = chromium.browser;
});
afterAll(async () => {
  await pipeline?.stop();
  await chromium?.close();
});

const logIn = (username: string, password: string) =>
  api.call('POST', '/v15/access_tokens', { body: { access_token: { api_key: app.apiKey, username, password } } });

/** The emailed link, pointed at this test's API (the link's host is the one the request came in on). */
async function requestResetLink(email: string, alreadySent = 0): Promise<string> {
  const response = await api.call('POST', '/v14/passwords', { body: { email } });
  expect(response.status).toBe(204);
  const mail = await mailTo(email, { atLeast: alreadySent + 1 });
  expect(mail).toHaveLength(alreadySent + 1);
  const link = resetLinkIn(mail.at(-1)!);
  expect(link.startsWith(`${api.baseUrl}/password_reset#token=`)).toBe(true);
  return link;
}

/** Types the new password twice and submits; returns the message the page shows. */
async function setPasswordInPage(page: Page, password: string): Promise<string> {
  await page.fill('#password', password);
  await page.fill('#confirmation', password);
  await page.click('#submit');
  await page.locator('#message:not(:empty)').waitFor();
  return (await page.textContent('#message')) ?? '';
}

describe('password reset in a browser', () => {
  it('email -> link -> new password on the page -> it logs in; the old password and other tokens fail; the link works once', async () => {
    const user = await userFixture(app.app.app_id, { password: 'the old password' });
    const otherSession = (await logIn(user.email, 'the old password')).body.access_token.token;
    const downgraded = (
      await api.call('POST', '/v15/access_tokens/downgrades', { token: otherSession, body: { access_token: { permission_keynames: ['read_qr_code'] } } })
    ).body.access_token.token;
    expect((await api.call('GET', '/v15/payment_token', { token: downgraded })).status).toBe(200);

    const link = await requestResetLink(user.email);
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const opened = await page.goto(link);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.title()).toBe('Choose a new password');
    // The secret left the address bar as soon as the page read it.
    expect(page.url()).toBe(`${api.baseUrl}/password_reset`);

    expect(await setPasswordInPage(page, 'the new password')).toContain('Your password is changed');
    expect(pageErrors).toEqual([]);
    for (const url of requested) expect(url.startsWith(`${api.baseUrl}/`), url).toBe(true);
    // The secret never travelled in a URL (fragments are not sent; the page posts it in a JSON body).
    const secret = new URL(link).hash.slice('#token='.length);
    for (const url of requested) expect(url.includes(secret), url).toBe(false);

    expect((await logIn(user.email, 'the new password')).status).toBe(200);
    expect((await logIn(user.email, 'the old password')).status).toBe(422);
    for (const token of [user.token, otherSession, downgraded]) expect((await api.call('GET', '/v15/users', { token })).status).toBe(401);

    // Once only: the same link again is refused on the page.
    const again = await browser.newPage();
    await again.goto(link);
    expect(await setPasswordInPage(again, 'a third password')).toContain('invalid, used or expired');
    expect((await logIn(user.email, 'a third password')).status).toBe(422);
  });

  it('the page refuses two different passwords and a short one, and says so', async () => {
    const user = await userFixture(app.app.app_id);
    const page = await browser.newPage();
    await page.goto(await requestResetLink(user.email));
    await page.fill('#password', 'first version');
    await page.fill('#confirmation', 'second version');
    await page.click('#submit');
    await page.locator('#message:not(:empty)').waitFor();
    expect(await page.textContent('#message')).toContain('differ');
    // The browser's own minlength check is bypassed the way a script would: the API refuses too.
    const short = await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: new URL(page.url()).hash || 'x', password: 'short' } } });
    expect(short.status).toBe(422);
  });

  it('a link expires after an hour, and dies when the password changes after it was sent', async () => {
    const user = await userFixture(app.app.app_id);
    const expired = await requestResetLink(user.email);
    const secret = new URL(expired).hash.slice('#token='.length);
    // An hour later: the stored link's expiry is in the past (its TTL; reads check it too).
    await setStoredAttributes(keys.passwordReset(sha256(secret)), { ttl: Math.floor(Date.now() / 1000) - 1 });
    const tooLate = await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: secret, password: 'late password' } } });
    expect(tooLate.status).toBe(422);
    expect(tooLate.body).toEqual([{ error: expect.objectContaining({ object: 'password_reset', property: 'token', code: 'invalid_token' }) }]);

    const stale = new URL(await requestResetLink(user.email, 1)).hash.slice('#token='.length);
    const changed = await api.call('PUT', '/v15/users', { token: user.token, body: { user: { password: 'changed meanwhile' } } });
    expect(changed.status).toBe(200);
    const afterChange = await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: stale, password: 'stale link password' } } });
    expect(afterChange.status).toBe(422);
    expect((await logIn(user.email, 'changed meanwhile')).status).toBe(200);
  });

  it('a reset unlocks an account locked by failed logins', async () => {
    const user = await userFixture(app.app.app_id);
    for (let attempt = 0; attempt < 10; attempt++)
      await api.call('POST', '/v15/access_tokens', {
        localAddress: '127.0.0.21',
        body: { access_token: { api_key: app.apiKey, username: user.email, password: `wrong ${attempt}` } },
      });
    expect((await logIn(user.email, user.password)).status).toBe(429);
    const secret = new URL(await requestResetLink(user.email)).hash.slice('#token='.length);
    expect((await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: secret, password: 'unlocked password' } } })).status).toBe(204);
    expect((await logIn(user.email, 'unlocked password')).status).toBe(200);
  });
});
