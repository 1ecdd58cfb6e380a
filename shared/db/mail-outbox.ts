/**
 * The mail outbox: an email a change owes someone is an item of the SAME TransactWriteItems as the change,
 * so the mail exists if and only if the change committed, and the request answers without waiting for SES.
 * The table's stream hands each inserted mail item to functions/events-stream.ts, which sends it and marks it
 * sent (shared/domain/mail-outbox.ts; docs/events.md, "Email from the outbox"). One item per mail, keyed by
 * what owes it (`gcorder:<uuid>`), written with `attribute_not_exists(pk)`: one change, one mail.
 *
 * The item holds the recipient's address and the rendered message (personal data: docs/security.md); the
 * body is removed once SES accepted it, and the whole item expires MAIL_RETENTION_DAYS after it was written.
 */
import { keys } from '#shared/db/keys.ts';
import { putNew, type TransactItem } from '#shared/db/transactions.ts';

/**
 * How long a mail item is kept (its sent or refused state, for support). The stream keeps records 24 hours,
 * so a mail not sent by then never will be; the days after are for looking into it (docs/operations.md).
 */
export const MAIL_RETENTION_DAYS = 7;

/** What is sent: exactly one recipient, a subject, a text and an HTML body (the mailer port's Email). */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The stored mail item (what the stream carries). */
export interface MailItem extends OutboxMail {
  mail_id: string;
  created_at: string;
  /** Set once SES accepted it (the body is then removed). */
  sent_at?: string;
  /** Set when SES refused it for good (shared/domain/mail-outbox.ts): never retried. */
  failed_at?: string;
  failure?: string;
}

/**
 * The item that records `mail` with its change: add it to the change's transaction. `createdAt` is the
 * change's ISO instant (its TTL counts from it).
 */
export function mailItem(mailId: string, mail: OutboxMail, createdAt: string): TransactItem {
  const expires = Math.floor(Date.parse(createdAt) / 1000) + MAIL_RETENTION_DAYS * 24 * 3600;
  const item: MailItem & { ttl: number } = { mail_id: mailId, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, created_at: createdAt, ttl: expires };
  return putNew({ ...keys.mail(mailId), entity: 'Mail', ...item });
}
