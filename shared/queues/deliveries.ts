/**
 * The port of the webhook delivery queue (docs/events.md): an SQS FIFO queue in AWS, grouped by endpoint
 * and resource, so a resource's events reach an endpoint one at a time and in order; a failed attempt
 * stays at the head of its group, invisible until its retry (`delayRedelivery`), and holds the group.
 * Locally, the local queue (scripts/local/delivery-queue.ts) registers itself in this process and gives
 * the same guarantees to the same handler (functions/webhook-deliveries.ts).
 */
import { loadedOnFirstUse, requireEnv } from '#shared/env.ts';

/** The body of one queued delivery: which event, to which endpoint, since when. */
export interface DeliveryMessage {
  endpoint_id: string;
  event_id: string;
  /** Epoch ms when the delivery was queued: the retry schedule's clock (given up 7 days later). */
  queued_at: number;
  /** Set on a replay's deliveries (its id): a replay is delivered again even if the event was before. */
  replay?: string;
}

export interface QueuedDelivery {
  message: DeliveryMessage;
  /** FIFO group: one endpoint and one resource (in order among themselves, independent of the rest). */
  groupId: string;
  /** FIFO deduplication: the same delivery queued twice within 5 minutes is one. */
  deduplicationId: string;
}

export interface LocalDeliveryQueue {
  send(deliveries: readonly QueuedDelivery[]): void;
  delay(receiptHandle: string, seconds: number): void;
}

/** The environment variable naming the queue in the functions that queue deliveries. */
export const DELIVERY_QUEUE_URL_ENV = 'DELIVERY_QUEUE_URL';
/** SQS's longest visibility timeout: the longest a retry can wait (the schedule's last step, 12 h). */
export const MAX_DELAY_SECONDS = 12 * 3600;

/** On globalThis so every module instance in the process (test runners may load two) sees it. */
const LOCAL_QUEUE = Symbol.for('loyalty-api.events.local-delivery-queue');
type QueueHolder = { [LOCAL_QUEUE]?: LocalDeliveryQueue };

export function registerLocalDeliveryQueue(queue: LocalDeliveryQueue | undefined): void {
  (globalThis as QueueHolder)[LOCAL_QUEUE] = queue;
}

const localQueue = (): LocalDeliveryQueue | undefined => (globalThis as QueueHolder)[LOCAL_QUEUE];

/**
 * @aws-sdk/client-sqs is loaded on the first delivery sent to SQS, not at import (`loadedOnFirstUse`,
 * shared/env.ts): a cold start of the functions that queue deliveries no longer pays for it when the batch
 * queues nothing, and locally (the local queue) it is never loaded.
 */
const sqs = loadedOnFirstUse(() => import('@aws-sdk/client-sqs').then((commands) => ({ client: new commands.SQSClient({}), commands })));

/** Queues deliveries (10 per SendMessageBatch); throws when any was refused, so the caller's batch is retried. */
export async function queueDeliveries(deliveries: readonly QueuedDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const local = localQueue();
  if (local) {
    local.send(deliveries);
    return;
  }
  const queueUrl = requireEnv(DELIVERY_QUEUE_URL_ENV);
  const { client, commands } = await sqs();
  for (let start = 0; start < deliveries.length; start += 10) {
    const batch = deliveries.slice(start, start + 10);
    const result = await client.send(
      new commands.SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((delivery, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(delivery.message),
          MessageGroupId: delivery.groupId,
          MessageDeduplicationId: delivery.deduplicationId,
        })),
      }),
    );
    if (result.Failed?.length) throw new Error(`SQS refused ${result.Failed.length} deliveries: ${result.Failed.map((failure) => failure.Code).join(', ')}`);
  }
}

/** Keeps a failed delivery at the head of its group, invisible for `seconds` (its next attempt). */
export async function delayRedelivery(receiptHandle: string, seconds: number): Promise<void> {
  const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));
  const local = localQueue();
  if (local) {
    local.delay(receiptHandle, seconds);
    return;
  }
  const { client, commands } = await sqs();
  await client.send(
    new commands.ChangeMessageVisibilityCommand({ QueueUrl: requireEnv(DELIVERY_QUEUE_URL_ENV), ReceiptHandle: receiptHandle, VisibilityTimeout: delay }),
  );
}
