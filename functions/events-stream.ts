/**
 * The table's DynamoDB Stream -> the webhook delivery queue and the mail outbox (not an HTTP route: it exports
 * `streamHandler`, so the gateway can never serve it). In AWS an event source mapping invokes it with the new
 * images of inserted event and mail items (its two filters); locally scripts/local/event-stream.ts reads
 * DynamoDB Local's stream and calls it the same way.
 *
 * It also sends the push notifications an app user expects (shared/domain/notifications/notifications.ts), from the new
 * images of the writes they follow (an order-ahead order completed or rejected, an earned reward, a gift card
 * load), filtered the same way; a push never waits in, or fails, the request that made the change.
 *
 * It also keeps the merchants' report aggregates (shared/domain/reports/aggregates.ts): every inserted ledger entry,
 * order, loyalty member and reward is counted once, by its key, into its day and location; a re-delivered batch
 * counts nothing twice. Here, not in a reader of its own, for the same reason as the mail below.
 *
 * Mail is sent here rather than by a second function on the stream: a DynamoDB stream shard should have at most
 * two readers, the local stand-in drives one function, and both jobs are the same "act on an inserted outbox
 * item" with the same retry, bisection and on-failure queue. A failure of either throws once both finished,
 * so the batch is retried: queuing is deduplicated per endpoint and event, receivers dedupe by event id, and a
 * mail already sent is skipped (shared/domain/notifications/mail-outbox.ts; docs/events.md).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { eventsOfStream, fanOut } from '#shared/domain/events/delivery.ts';
import { mailsOfStream, sendOutboxMails } from '#shared/domain/notifications/mail-outbox.ts';
import { notificationsOfStream, sendNotifications } from '#shared/domain/notifications/notifications.ts';
import { countReportRecords } from '#shared/domain/reports/aggregates.ts';
import { log } from '#shared/log.ts';

export async function streamHandler(event: DynamoDBStreamEvent): Promise<{ queued: number; mailed: number }> {
  const changes = event.Records.filter((record) => (record.eventName === 'INSERT' || record.eventName === 'MODIFY') && record.dynamodb?.NewImage).map(
    (record) => ({
      eventName: record.eventName!,
      image: unmarshall(record.dynamodb!.NewImage as Record<string, AttributeValue>),
    }),
  );
  const images = changes.filter((change) => change.eventName === 'INSERT').map((change) => change.image);
  const events = eventsOfStream(images);
  const [queuing, mailing, pushing, counting] = await Promise.allSettled([
    fanOut(events),
    sendOutboxMails(mailsOfStream(images)),
    sendNotifications(notificationsOfStream(changes)),
    countReportRecords(images),
  ]);
  if (queuing.status === 'fulfilled' && events.length > 0) log('info', 'events_fanned_out', { events: events.length, deliveries: queuing.value });
  if (mailing.status === 'fulfilled' && mailing.value.sent + mailing.value.skipped + mailing.value.refused > 0)
    log('info', 'outbox_mails_handled', { ...mailing.value });
  if (pushing.status === 'fulfilled' && pushing.value.sent + pushing.value.skipped + pushing.value.dropped > 0)
    log('info', 'push_notifications_handled', { ...pushing.value });
  if (counting.status === 'fulfilled' && counting.value.counted + counting.value.skipped > 0) log('info', 'report_records_counted', { ...counting.value });
  if (queuing.status === 'rejected') throw queuing.reason;
  if (mailing.status === 'rejected') throw mailing.reason;
  if (pushing.status === 'rejected') throw pushing.reason;
  if (counting.status === 'rejected') throw counting.reason;
  // Pushes are counted in their log line: the answer stays what the mapping's callers and tests read.
  return { queued: queuing.value, mailed: mailing.value.sent };
}
