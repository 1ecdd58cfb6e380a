/**
 * The webhook delivery queue's consumer (not an HTTP route: it exports `queueHandler`). Each message is one
 * attempt of one event to one endpoint (shared/domain/events/delivery.ts). A delivery to retry stays at the
 * head of its FIFO group, made invisible until its next attempt, and is reported as a batch item failure;
 * later messages of that group in the batch are reported too (they must not overtake it). Delivered,
 * given-up and dropped messages are done (deleted by the event source mapping).
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { delayRedelivery, deliver, type DeliveryMessage } from '#shared/domain/events/delivery.ts';
import { publishMetrics } from '#shared/metrics.ts';
import { log } from '#shared/log.ts';

export async function queueHandler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: { itemIdentifier: string }[] = [];
  const heldGroups = new Set<string>();
  try {
    for (const record of event.Records) {
      const group = record.attributes.MessageGroupId ?? record.messageId;
      if (heldGroups.has(group)) {
        failures.push({ itemIdentifier: record.messageId });
        continue;
      }
      try {
        const message = JSON.parse(record.body) as DeliveryMessage;
        const outcome = await deliver(message, Number(record.attributes.ApproximateReceiveCount ?? '1'));
        if (outcome.kind === 'dropped')
          log('info', 'webhook_dropped', { endpoint_id: message.endpoint_id, event_id: message.event_id, reason: outcome.reason });
        if (outcome.kind !== 'retry') continue;
        await delayRedelivery(record.receiptHandle, outcome.delaySeconds);
      } catch (error) {
        // Our own failure (DynamoDB, SQS): the message comes back after the queue's visibility timeout.
        log('error', 'webhook_attempt_error', { message_id: record.messageId, error: (error as Error).message });
      }
      heldGroups.add(group);
      failures.push({ itemIdentifier: record.messageId });
    }
  } finally {
    publishMetrics();
  }
  return { batchItemFailures: failures };
}
