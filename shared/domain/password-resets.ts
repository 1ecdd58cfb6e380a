import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { createItem, transactWrite } from '#shared/db/transactions.ts';
import { keys } from '#shared/db/keys.ts';
import { hashPassword, randomSecret, sha256 } from '#shared/auth/secrets.ts';
import { revokeAccountTokens } from '#shared/auth/tokens.ts';
import { ACCOUNT_LOGIN_FAILURES, clearWindow, recordHit, release, type WindowLimit } from '#shared/domain/rate-limits.ts';
import { escapeHtml, mailer, type Email } from '#shared/mail/mailer.ts';
import { serviceUnavailable, unprocessable } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { epochSeconds } from '#shared/time.ts';

/**
 * Password reset by email (POST /v14/passwords, then the page at /password_reset, then
 * POST /v15/password_resets). docs/identity.md "Password reset".
 *
 * The emailed link carries a 256-bit secret in its fragment (`/password_reset#token=...`): browsers
 * never send a fragment to a server, so the secret stays out of access logs and Referer headers. Only
 * its SHA-256 is stored, with a one-hour TTL. Using it is one transaction that deletes it (single use)
 * and sets the password, guarded so that a link issued before the password last changed is dead.
 * A reset then revokes every token of the account and forgives its failed logins.
 */
export const RESET_LINK_LIFETIME_SECONDS = 3600;
/** Reset emails per account per hour: more requests still answer 204 but send nothing (no mail-bombing through us). */
export const RESET_EMAILS_PER_ACCOUNT: WindowLimit = { name: 'reset-email', limit: 5, windowSeconds: 3600 };

const INVALID_LINK = () => unprocessable('password_reset', 'token', 'This password reset link is invalid, used or expired; ask for a new one.', 'invalid_token');

interface LoginItem {
  subject: 'user' | 'merchant';
  user_id?: number;
}

/** Sends a reset link when a user has this email; does nothing otherwise (the caller answers 204 either way). */
export async function requestPasswordReset(email: string, baseUrl: string): Promise<void> {
  const username = email.trim().toLowerCase();
  const login = (await db().send(new GetCommand({ TableName: table(), Key: keys.login(username), ConsistentRead: true }))).Item as LoginItem | undefined;
  if (!login || login.subject !== 'user' || login.user_id === undefined) return;
  const window = await recordHit(RESET_EMAILS_PER_ACCOUNT, username);
  if (window.count > RESET_EMAILS_PER_ACCOUNT.limit) {
    log('warn', 'password_reset_suppressed', { user_id: login.user_id, reason: 'too many reset emails this hour' });
    return;
  }
  const secret = randomSecret(32);
  const expiresAt = epochSeconds() + RESET_LINK_LIFETIME_SECONDS;
  const stored = await createItem({ ...keys.passwordReset(sha256(secret)), entity: 'PasswordReset', user_id: login.user_id, username, issued_at: new Date().toISOString(), ttl: expiresAt });
  if (!stored) throw new Error('a new reset secret digest is already stored');
  const link = `${baseUrl}/password_reset#token=${secret}`;
  await sendOrUnavailable(login.user_id, username, {
    to: email.trim(),
    subject: 'Reset your password',
    text: [
      'Someone (we hope you) asked to reset the password of this account.',
      '',
      `Choose a new password here within the next hour (the link works once): ${link}`,
      '',
      'If you did not ask, ignore this email: your password stays as it is.',
    ].join('\n'),
    html: [
      '<p>Someone (we hope you) asked to reset the password of this account.</p>',
      `<p><a href="${escapeHtml(link)}">Choose a new password</a> within the next hour (the link works once).</p>`,
      '<p>If you did not ask, ignore this email: your password stays as it is.</p>',
    ].join('\n'),
  });
  log('info', 'password_reset_sent', { user_id: login.user_id });
}

/**
 * Sends the reset email, or answers 503 with Retry-After when the mail service fails (SES unreachable,
 * throttled or erroring): the client asks again later, as it would after a network error. The hit the
 * request took from the per-account email window is given back, since no email went out; the stored
 * secret is left to its TTL (nobody holds the link). Only a registered email reaches this point, so while
 * mail is down a 503 says the email is registered: accepted against silently dropping a user's reset.
 */
async function sendOrUnavailable(userId: number, username: string, email: Email): Promise<void> {
  try {
    await mailer().send(email);
  } catch (error) {
    log('error', 'password_reset_mail_failed', { user_id: userId, error: (error as Error).name });
    await release(RESET_EMAILS_PER_ACCOUNT, username);
    throw serviceUnavailable('base', 'We could not send the email just now. Please try again in a moment.', 'mail_unavailable', MAIL_RETRY_AFTER_SECONDS);
  }
}

/** Seconds a client waits before asking for a reset email again after the mail service failed. */
export const MAIL_RETRY_AFTER_SECONDS = 30;

/** Sets the new password with a reset link's secret; the link dies, and so does every token of the account. */
export async function completePasswordReset(secret: string, newPassword: string): Promise<void> {
  const key = keys.passwordReset(sha256(secret));
  const reset = (await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item;
  const now = epochSeconds();
  if (!reset || Number(reset.ttl) <= now) throw INVALID_LINK();
  const userId = Number(reset.user_id);
  const passwordHash = await hashPassword(newPassword);
  const outcome = await transactWrite(() => [
    { Delete: { TableName: table(), Key: key, ConditionExpression: 'attribute_exists(pk) AND #ttl > :now', ExpressionAttributeNames: { '#ttl': 'ttl' }, ExpressionAttributeValues: { ':now': now } } },
    {
      Update: {
        TableName: table(),
        Key: keys.login(String(reset.username)),
        UpdateExpression: 'SET password_hash = :hash, password_changed_at = :changed',
        // The account still has this email, and its password has not changed since the link was sent.
        ConditionExpression: 'user_id = :user AND (attribute_not_exists(password_changed_at) OR password_changed_at <= :issued)',
        ExpressionAttributeValues: { ':hash': passwordHash, ':changed': new Date().toISOString(), ':user': userId, ':issued': reset.issued_at },
      },
    },
  ]);
  if (!outcome.committed) throw INVALID_LINK();
  await Promise.all([revokeAccountTokens({ subject: 'user', id: userId }), clearWindow(ACCOUNT_LOGIN_FAILURES, String(reset.username))]);
  log('info', 'password_reset_completed', { user_id: userId });
}
