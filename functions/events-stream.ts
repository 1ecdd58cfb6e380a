/**
 * The table's DynamoDB Stream -> the webhook delivery queue and the mail outbox (not an HTTP route: it exports
 * `streamHandler`, so the gateway can never serve it). In AWS an event source mapping invokes it with the new
 * images of inserted event and mail items (its two filters); locally scripts/local/event-stream.ts reads
 * DynamoDB Local's stream and calls it the same way.
 *
 * Mail is sent here rather than by a second function on the stream: a DynamoDB stream shard should have at most
 * two readers, the local stand-in drives one function, and both jobs are the same "act on an inserted outbox
 * item" with the same retry, bisection and on-failure queue. A failure of either throws once both finished,
 * so the batch is retried: queuing is deduplicated per endpoint and event, receivers dedupe by event id, and a
 * mail already sent is skipped (shared/domain/mail-outbox.ts; docs/events.md).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { eventsOfStream, fanOut } from '#shared/domain/events/delivery.ts';
import { mailsOfStream, sendOutboxMails } from '#shared/domain/mail-outbox.ts';
import { log } from '#shared/log.ts';

export async function streamHandler(event: DynamoDBStreamEvent): Promise<{ queued: number; mailed: number }> {
  const images = event.Records.filter((record) => record.eventName === 'INSERT' && record.dynamodb?.NewImage).map((record) =>
    unmarshall(record.dynamodb!.NewImage as Record<string, AttributeValue>),
  );
  const events = eventsOfStream(images);
  const [queuing, mailing] = await Promise.allSettled([fanOut(events), sendOutboxMails(mailsOfStream(images))]);
  if (queuing.status === 'fulfilled' && events.length > 0) log('info', 'events_fanned_out', { events: events.length, deliveries: queuing.value });
  if (mailing.status === 'fulfilled' && mailing.value.sent + mailing.value.skipped + mailing.value.refused > 0) log('info', 'outbox_mails_handled', { ...mailing.value });
  if (queuing.status === 'rejected') throw queuing.reason;
  if (mailing.status === 'rejected') throw mailing.reason;
  return { queued: queuing.value, mailed: mailing.value.sent };
}
