/**
 * Sending the mail outbox (shared/db/mail-outbox.ts) from the table's stream (functions/events-stream.ts).
 *
 * Guarded, at least once (docs/events.md, "Email from the outbox"): before sending, ONE consistent
 * BatchGetItem reads the batch's mail items, and a mail already marked sent (or refused, or expired) is
 * skipped, so a retried batch or a replayed record sends nothing twice; after SES accepted a mail, a
 * conditional UpdateItem marks it sent and removes its body. A second copy can only go out if the function
 * dies between SES's answer and that mark (the batch is then retried). A shard's records are handled by one
 * invocation at a time, so two sends of one mail never race.
 *
 * A send that fails is retried with the batch (every other mail of it is still attempted, and those sent are
 * then skipped); SES refusing the message itself (BadRequestException, MessageRejected) is recorded on the item
 * and logged, not retried, so one bad mail cannot hold the stream. What keeps failing goes, after the
 * mapping's retries and bisection, to its on-failure queue (infra/constructs/webhook-delivery.ts), alarmed.
 *
 * A composed mail (shared/db/mail-outbox.ts, `ComposedMail`) is rendered here, just before it is sent: its
 * composer looks the recipient up and renders nothing for an address that is no user's (the item is then
 * marked skipped). A failed send renders it afresh on the retry.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { itemExists } from '#shared/db/conditions.ts';
import type { Changes } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { Mail, MAIL_COMPOSERS, type MailAttributes, type MailComposer, type MailItem, type OutboxMail } from '#shared/db/mail-outbox.ts';
import { readItems } from '#shared/db/reads.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { log } from '#shared/log.ts';
import { mailer } from '#shared/mail/mailer.ts';
import { composePasswordResetMail } from '#shared/domain/identity/password-resets.ts';
import { composePermissionsRequestMail } from '#shared/domain/identity/permissions-requests.ts';
import { composeStaffInviteMail } from '#shared/domain/staff/invites.ts';
import { isoSeconds } from '#shared/time.ts';

/** SES errors about the message itself: sending it again cannot succeed. */
const REFUSED_FOR_GOOD = new Set(['BadRequestException', 'MessageRejected']);

export interface OutboxMailOutcome {
  sent: number;
  /** Already sent, refused or expired when read (a retried batch or a replayed record), or composed for no user. */
  skipped: number;
  refused: number;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** The mail items among a stream batch's new images (inserted items). */
export function mailsOfStream(newImages: readonly Record<string, unknown>[]): MailItem[] {
  return newImages.filter(isMailImage);
}

/** A stream image is a mail item: its key is a mail's and it names its mail (what sendOutboxMails reads it by). */
function isMailImage(image: Record<string, unknown>): image is Record<string, unknown> & MailItem {
  return keys.isMailKey(image) && isText(image.mail_id);
}

/** Whether an item read now still owes its mail, with everything a send (or its composer) needs. */
function stillOwed(item: MailItem | undefined): item is MailItem {
  if (item === undefined || item.sent_at !== undefined || item.failed_at !== undefined || item.skipped_at !== undefined || !isText(item.to)) return false;
  if (item.composer !== undefined) return MAIL_COMPOSERS.includes(item.composer) && typeof item.inputs === 'object' && item.inputs !== null;
  return isText(item.subject) && isText(item.text) && isText(item.html);
}

/**
 * Renders a composed mail now, or undefined when there is nothing to send (the address is no user's).
 * Looking the recipient up here, after the request that wrote the mail was answered, is what keeps that
 * answer the same for registered and unknown addresses (docs/security.md, "No registration oracle").
 */
const COMPOSERS: Record<MailComposer, (to: string, inputs: Record<string, unknown>) => Promise<OutboxMail | undefined>> = {
  'password-reset': (to, inputs) => composePasswordResetMail(to, String(inputs.base_url)),
  'permissions-request': (to, inputs) => composePermissionsRequestMail(to, Number(inputs.request_id)),
  'staff-invite': (to, inputs) => composeStaffInviteMail(to, String(inputs.base_url), Number(inputs.staff_id)),
};

/** What to send for an owed item: its stored body, or what its composer renders (undefined: nothing). */
async function mailOf(item: MailItem): Promise<OutboxMail | undefined> {
  if (item.composer === undefined) return { to: item.to, subject: item.subject!, text: item.text!, html: item.html! };
  return COMPOSERS[item.composer](item.to, item.inputs ?? {});
}

/** Sends the mails not yet sent; throws (after trying every one) when a send failed and should be retried. */
export async function sendOutboxMails(mails: readonly MailItem[]): Promise<OutboxMailOutcome> {
  const outcome: OutboxMailOutcome = { sent: 0, skipped: 0, refused: 0 };
  if (mails.length === 0) return outcome;
  const ids = [...new Set(mails.map((mail) => mail.mail_id))];
  const current = await readItems(
    ids.map((id) => keys.mail(id)),
    { consistent: true },
  );
  let retry: unknown;
  for (const [index, id] of ids.entries()) {
    const item = Mail.from(current[index]);
    if (!stillOwed(item)) {
      outcome.skipped++;
      continue;
    }
    let mail: OutboxMail | undefined;
    try {
      mail = await mailOf(item);
      if (!mail) {
        await markSkipped(id);
        outcome.skipped++;
        continue;
      }
      await mailer().send(mail);
    } catch (error) {
      const name = (error as Error).name;
      // Never the body or the address in a log line (docs/security.md): the mail id names the change.
      if (REFUSED_FOR_GOOD.has(name)) {
        await markRefused(id, name);
        outcome.refused++;
        log('error', 'outbox_mail_refused', { mail_id: id, error: name });
      } else {
        retry ??= error;
        log('error', 'outbox_mail_not_sent', { mail_id: id, error: (error as Error).message });
      }
      continue;
    }
    try {
      await markSent(id);
      outcome.sent++;
    } catch (error) {
      // Sent but not marked: the retried batch sends it again (the one way a second copy goes out).
      retry ??= error;
      log('error', 'outbox_mail_not_marked', { mail_id: id, error: (error as Error).message });
    }
  }
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the retryable error caught above as it came
  if (retry) throw retry;
  return outcome;
}

/** SES accepted it: marked sent (a retry or replay then skips it), its body no longer kept. */
const markSent = (id: string) => mark(id, { set: { sent_at: isoSeconds() }, remove: ['subject', 'text', 'html'] });

/** Its composer had nothing to send (no user has the address): recorded, never looked at again. */
const markSkipped = (id: string) => mark(id, { set: { skipped_at: isoSeconds() } });

/** SES refused the message itself: recorded, never sent again (the item keeps it until it expires, for support). */
const markRefused = (id: string, failure: string) => mark(id, { set: { failed_at: isoSeconds(), failure } });

async function mark(id: string, changes: Changes<MailAttributes>): Promise<void> {
  const command = new UpdateCommand(Mail.at(id).update(changes, itemExists).Update);
  await retryTransient(() => db().send(command)).catch((error: unknown) => {
    // Expired meanwhile (TTL): nothing left to mark. Anything else fails the batch, which is retried.
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  });
}
