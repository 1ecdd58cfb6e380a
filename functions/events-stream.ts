/**
 * The table's DynamoDB Stream -> the webhook delivery queue (not an HTTP route: it exports `streamHandler`,
 * so the gateway can never serve it). In AWS an event source mapping invokes it with the new images of
 * inserted event items (its filter); locally scripts/local/event-stream.ts reads DynamoDB Local's stream
 * and calls it the same way. A failure throws, so the batch is retried: queuing is deduplicated per
 * endpoint and event, and receivers dedupe by event id (docs/events.md).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { eventsOfStream, fanOut } from '#shared/domain/events/delivery.ts';
import { log } from '#shared/log.ts';

export async function streamHandler(event: DynamoDBStreamEvent): Promise<{ queued: number }> {
  const images = event.Records.filter((record) => record.eventName === 'INSERT' && record.dynamodb?.NewImage).map((record) =>
    unmarshall(record.dynamodb!.NewImage as Record<string, AttributeValue>),
  );
  const events = eventsOfStream(images);
  const queued = await fanOut(events);
  if (events.length > 0) log('info', 'events_fanned_out', { events: events.length, deliveries: queued });
  return { queued };
}
