import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { and, atMost, attributeMissing, above, itemExists, or } from '#shared/db/conditions.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { composedMailItem, type OutboxMail } from '#shared/db/mail-outbox.ts';
import { createItem, transactWrite } from '#shared/db/transactions.ts';
import { keys } from '#shared/db/keys.ts';
import { hashPassword, randomSecret, sha256 } from '#shared/auth/secrets.ts';
import { revokeAccountTokens } from '#shared/auth/tokens.ts';
import { ACCOUNT_LOGIN_FAILURES, clearWindow, consumeOrRefuse, PASSWORD_RESETS_PER_CLIENT, PASSWORD_RESETS_PER_EMAIL } from '#shared/domain/rate-limits.ts';
import { escapeHtml } from '#shared/mail/mailer.ts';
import { unprocessable } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { epochSeconds } from '#shared/time.ts';
import { Login, loginIsUsers, passwordFields, type LoginItem } from '#shared/domain/identity/entities.ts';
import { StaffMember } from '#shared/domain/staff/entities.ts';

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

const INVALID_LINK = () =>
  unprocessable('password_reset', 'token', 'This password reset link is invalid, used or expired; ask for a new one.', 'invalid_token');
const TOO_MANY_RESETS = { object: 'base', message: 'Too many password reset requests; try again later.' };

/**
 * A reset link's secret, by its SHA-256: whose password it resets, and until when (ttl, epoch seconds). A staff
 * member's link (a reset, or the invite's set-password link) also names them: their tokens are theirs to revoke, and
 * their first password makes an invited member active.
 */
const PasswordReset = defineEntity<{ user_id: number; username: string; issued_at: string; ttl: number; staff_id?: number; merchant_id?: number }>()({
  entity: 'PasswordReset',
  key: keys.passwordReset,
});

/** Whose password a link sets: a user's login, or a staff member's (subject `merchant` with `staff_id`). */
export interface PasswordLinkHolder {
  username: string;
  /** The user's id, or the staff member's person id (what the login holds as `user_id`). */
  user_id: number;
  staff?: { staff_id: number; merchant_id: number };
}

/** The login a reset may set the password of: a user's, or a staff member's (never a merchant's shared login). */
function linkHolderOf(username: string, login: LoginItem | undefined): PasswordLinkHolder | undefined {
  if (!login || login.user_id === undefined) return undefined;
  if (login.subject === 'user') return { username, user_id: login.user_id };
  if (login.staff_id !== undefined && login.merchant_id !== undefined) {
    return { username, user_id: login.user_id, staff: { staff_id: login.staff_id, merchant_id: login.merchant_id } };
  }
  return undefined;
}

/**
 * Makes a single-use link that sets `holder`'s password, valid `lifetimeSeconds`: only its secret's SHA-256 is
 * stored. Called while composing a mail (the reset here, a staff invite in shared/domain/staff/invites.ts).
 */
export async function issuePasswordLink(holder: PasswordLinkHolder, baseUrl: string, lifetimeSeconds: number): Promise<string> {
  const secret = randomSecret(32);
  const staff = holder.staff ? { staff_id: holder.staff.staff_id, merchant_id: holder.staff.merchant_id } : {};
  // A fresh secret's key: a re-sent write that finds it taken found its own first write.
  // Spread: createItem takes any item, and a spread is a plain object type (the entity's is an interface's).
  await createItem(
    {
      ...PasswordReset.at(sha256(secret)).item({
        user_id: holder.user_id,
        username: holder.username,
        issued_at: new Date().toISOString(),
        ttl: epochSeconds() + lifetimeSeconds,
        ...staff,
      }),
    },
    { resend: true },
  );
  return `${baseUrl}/password_reset#token=${secret}`;
}

/**
 * POST /v14/passwords: counts the request against the client's and the email's hourly windows (429 with
 * Retry-After past either), then writes the reset mail to the outbox, to be composed after the answer.
 * The same three writes whether or not a user has this email, and no read of who has it: whether the
 * address is registered is decided by `composePasswordResetMail`, on the table's stream (docs/identity.md
 * "Password reset"; docs/security.md, "No registration oracle").
 */
export async function requestPasswordReset(email: string, client: string, baseUrl: string): Promise<void> {
  const username = email.trim().toLowerCase();
  await consumeOrRefuse(PASSWORD_RESETS_PER_CLIENT, client, TOO_MANY_RESETS);
  await consumeOrRefuse(PASSWORD_RESETS_PER_EMAIL, username, TOO_MANY_RESETS);
  const mail = composedMailItem(
    `pwreset:${randomUUID()}`,
    { to: email.trim(), composer: 'password-reset', inputs: { base_url: baseUrl } },
    new Date().toISOString(),
  );
  await db().send(new PutCommand(mail.Put!));
}

/**
 * The reset email for `to`, or undefined when no user has that email (nothing is sent). Composed by the mail
 * outbox's sender when it sends it, so the secret is made then, and only its SHA-256 is ever stored: a send
 * that fails makes a new one on its retry (the unsent one's digest expires with its TTL, nobody holds it).
 */
export async function composePasswordResetMail(to: string, baseUrl: string): Promise<OutboxMail | undefined> {
  const username = to.trim().toLowerCase();
  const holder = linkHolderOf(username, await Login.at(username).get({ consistent: true }));
  if (!holder) return undefined;
  const link = await issuePasswordLink(holder, baseUrl, RESET_LINK_LIFETIME_SECONDS);
  log('info', 'password_reset_composed', { user_id: holder.user_id });
  return {
    to,
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
  };
}

/** Sets the new password with a reset link's secret; the link dies, and so does every token of the account. */
export async function completePasswordReset(secret: string, newPassword: string): Promise<void> {
  const stored = PasswordReset.at(sha256(secret));
  const reset = await stored.get({ consistent: true });
  const now = epochSeconds();
  if (!reset || Number(reset.ttl) <= now) throw INVALID_LINK();
  const userId = Number(reset.user_id);
  const passwordHash = await hashPassword(newPassword);
  const staff = reset.staff_id !== undefined && reset.merchant_id !== undefined ? { staffId: reset.staff_id, merchantId: reset.merchant_id } : undefined;
  const outcome = await transactWrite(() => [
    stored.delete(and(itemExists, above('ttl', now))),
    // The account still has this email, and its password has not changed since the link was sent.
    Login.at(String(reset.username)).update(
      { set: passwordFields(passwordHash) },
      and(loginIsUsers(userId), or(attributeMissing('password_changed_at'), atMost('password_changed_at', reset.issued_at))),
    ),
    // A staff member still at the merchant: their first password makes them active (removed: the link is dead).
    ...(staff ? [StaffMember.at(staff.merchantId, staff.staffId).update({ set: { status: 'active' } }, itemExists)] : []),
  ]);
  if (!outcome.committed) throw INVALID_LINK();
  const account = staff ? ({ subject: 'staff', id: staff.staffId } as const) : ({ subject: 'user', id: userId } as const);
  await Promise.all([revokeAccountTokens(account), clearWindow(ACCOUNT_LOGIN_FAILURES, String(reset.username))]);
  log('info', 'password_reset_completed', { user_id: userId });
}
