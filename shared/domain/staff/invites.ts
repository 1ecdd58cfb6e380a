/**
 * The invite mail of a new staff member: a link that sets their first password, through the password-reset
 * machinery (shared/domain/identity/password-resets.ts: the same page, the same single-use secret of which only the
 * SHA-256 is stored). Written to the mail outbox in the invite's own transaction and composed on the table's stream,
 * so the secret is made when the mail is sent (docs/merchant-api.md, "Invites").
 */
import { composedMailItem, type OutboxMail } from '#shared/db/mail-outbox.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { Login } from '#shared/domain/identity/entities.ts';
import { issuePasswordLink } from '#shared/domain/identity/password-resets.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';
import { escapeHtml } from '#shared/mail/mailer.ts';
import { log } from '#shared/log.ts';

/** How long an invite's link sets the first password: longer than a reset's hour, since an invite is not awaited. */
export const INVITE_LINK_LIFETIME_SECONDS = 3 * 24 * 3600;

/** The outbox item of a staff member's invite (one per staff member: a repeated invite is the same item). */
export function inviteMailItem(email: string, staffId: number, baseUrl: string, createdAt: string): TransactItem {
  return composedMailItem(`staffinvite:${staffId}`, { to: email, composer: 'staff-invite', inputs: { base_url: baseUrl, staff_id: staffId } }, createdAt);
}

/**
 * The invite for `to`, or undefined when there is nothing to send: the staff member was removed (their login is
 * gone or another's), or already has a password.
 */
export async function composeStaffInviteMail(to: string, baseUrl: string, staffId: number): Promise<OutboxMail | undefined> {
  const username = to.trim().toLowerCase();
  const login = await Login.at(username).get({ consistent: true });
  if (!login || login.staff_id !== staffId || login.password_hash !== undefined || login.user_id === undefined || login.merchant_id === undefined)
    return undefined;
  const merchant = await getMerchant(login.merchant_id);
  const link = await issuePasswordLink(
    { username, user_id: login.user_id, staff: { staff_id: staffId, merchant_id: login.merchant_id } },
    baseUrl,
    INVITE_LINK_LIFETIME_SECONDS,
  );
  const where = merchant?.name ?? 'your merchant';
  const days = INVITE_LINK_LIFETIME_SECONDS / 86_400;
  log('info', 'staff_invite_composed', { staff_id: staffId, merchant_id: login.merchant_id });
  return {
    to,
    subject: `You are invited to ${where}`,
    text: [
      `You are invited to manage ${where} as a member of its staff.`,
      '',
      `Choose your password here within the next ${days} days (the link works once): ${link}`,
      '',
      `Then sign in with this email address and that password.`,
    ].join('\n'),
    html: [
      `<p>You are invited to manage ${escapeHtml(where)} as a member of its staff.</p>`,
      `<p><a href="${escapeHtml(link)}">Choose your password</a> within the next ${days} days (the link works once).</p>`,
      '<p>Then sign in with this email address and that password.</p>',
    ].join('\n'),
  };
}
