/**
 * The mail outbox: an email a change owes someone is an item of the SAME TransactWriteItems as the change,
 * so the mail exists if and only if the change committed, and the request answers without waiting for SES.
 * The table's stream hands each inserted mail item to functions/events-stream.ts, which sends it and marks it
 * sent (shared/domain/notifications/mail-outbox.ts; docs/events.md, "Email from the outbox"). One item per mail, keyed by
 * what owes it (`gcorder:<uuid>`), written with `attribute_not_exists(pk)`: one change, one mail.
 *
 * The item holds the recipient's address and the rendered message (personal data: docs/security.md); the
 * body is removed once SES accepted it, and the whole item expires MAIL_RETENTION_DAYS after it was written.
 */
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';

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

/**
 * A mail written before anyone looks at who its recipient is: the request that owes it answers the same way
 * whether or not the address is a user's (docs/security.md, "No registration oracle"), and the sender composes
 * it when it sends it (shared/domain/notifications/mail-outbox.ts), for a registered user only. `inputs` are what the
 * composer needs besides the address (never a secret: a secret it mails is made when it is composed).
 */
export const MAIL_COMPOSERS = ['password-reset', 'permissions-request', 'staff-invite'] as const;
export type MailComposer = (typeof MAIL_COMPOSERS)[number];

export interface ComposedMail {
  to: string;
  composer: MailComposer;
  inputs: Record<string, string | number>;
}

/** The stored mail (what the stream carries): a rendered mail, or one its composer renders when sending. */
export interface MailAttributes extends Partial<OutboxMail> {
  mail_id: string;
  to: string;
  created_at: string;
  composer?: MailComposer;
  inputs?: Record<string, string | number>;
  /** Set once SES accepted it (the body is then removed). */
  sent_at?: string;
  /** Set when SES refused it for good (shared/domain/notifications/mail-outbox.ts): never retried. */
  failed_at?: string;
  failure?: string;
  /** Set when its composer had nothing to send (the address is no user's): never sent. */
  skipped_at?: string;
  /** Epoch seconds: MAIL_RETENTION_DAYS after `created_at`. */
  ttl: number;
}

export const Mail = defineEntity<MailAttributes>()({ entity: 'Mail', key: keys.mail });
export type MailItem = EntityItem<typeof Mail>;

/**
 * The item that records `mail` with its change: add it to the change's transaction. `createdAt` is the
 * change's ISO instant (its TTL counts from it).
 */
export function mailItem(mailId: string, mail: OutboxMail, createdAt: string): TransactItem {
  return storedMail({ mail_id: mailId, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, created_at: createdAt });
}

/** The item that records a mail its composer renders when it is sent (`ComposedMail`). */
export function composedMailItem(mailId: string, mail: ComposedMail, createdAt: string): TransactItem {
  return storedMail({ mail_id: mailId, to: mail.to, composer: mail.composer, inputs: mail.inputs, created_at: createdAt });
}

function storedMail(mail: Omit<MailAttributes, 'ttl'>): TransactItem {
  const expires = Math.floor(Date.parse(mail.created_at) / 1000) + MAIL_RETENTION_DAYS * 24 * 3600;
  return Mail.at(mail.mail_id).putNew({ ...mail, ttl: expires });
}
