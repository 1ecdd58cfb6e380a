/**
 * The local stand-in for the SQS FIFO delivery queue (infra/constructs/webhook-delivery.ts), registered with
 * the queue port (shared/queues/deliveries.ts) and feeding the same consumer (functions/webhook-deliveries.ts)
 * with SQS-shaped records. It keeps the guarantees the delivery relies on:
 * - FIFO per group: a group's next message is handed out only once the one before it is deleted;
 * - a message reported as failed stays at the head of its group, invisible until the consumer's
 *   `delayRedelivery` says (or LOCAL_VISIBILITY_MS when it said nothing), and counts its receives;
 * - deduplication by id for 5 minutes.
 * Groups run concurrently, like the event source mapping's batches. Messages live in this process only:
 * deliveries still waiting for a retry when `npm start` stops are not resumed (docs/events.md).
 */
import { randomUUID } from 'node:crypto';
import { registerLocalDeliveryQueue, type QueuedDelivery } from '#shared/queues/deliveries.ts';

const DEDUPLICATION_MS = 5 * 60 * 1000;
/** When the consumer failed on its own (no delay asked), the message comes back after this. */
const LOCAL_VISIBILITY_MS = 1000;

interface Message {
  id: string;
  body: string;
  group: string;
  receiveCount: number;
  visibleAt: number;
  inFlight: boolean;
  receiptHandle: string;
  sentAt: number;
}

export interface LocalQueue {
  /** Messages not yet deleted (waiting or in flight). */
  pending(): number;
  stop(): Promise<void>;
}

export async function startLocalDeliveryQueue(): Promise<LocalQueue> {
  const { queueHandler } = await import('../../functions/webhook-deliveries.ts');
  const groups = new Map<string, Message[]>();
  const byHandle = new Map<string, Message>();
  const seen = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    const waiting = [...groups.values()].map((queue) => queue[0]).filter((head): head is Message => head !== undefined && !head.inFlight);
    if (waiting.length === 0) return;
    const next = Math.min(...waiting.map((head) => head.visibleAt));
    timer = setTimeout(pump, Math.max(0, next - Date.now()));
  };

  const receive = async (message: Message) => {
    message.inFlight = true;
    message.receiveCount += 1;
    message.receiptHandle = randomUUID();
    byHandle.set(message.receiptHandle, message);
    const visibleBefore = message.visibleAt;
    let failed = true;
    try {
      const result = await queueHandler({
        Records: [
          {
            messageId: message.id,
            receiptHandle: message.receiptHandle,
            body: message.body,
            attributes: {
              ApproximateReceiveCount: String(message.receiveCount),
              SentTimestamp: String(message.sentAt),
              SenderId: 'local',
              ApproximateFirstReceiveTimestamp: String(message.sentAt),
              MessageGroupId: message.group,
            },
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: 'arn:aws:sqs:local:000000000000:webhook-deliveries.fifo',
            awsRegion: 'local',
          },
        ],
      });
      failed = result.batchItemFailures.some((failure) => failure.itemIdentifier === message.id);
    } finally {
      byHandle.delete(message.receiptHandle);
      message.inFlight = false;
      const queue = groups.get(message.group)!;
      if (!failed) {
        queue.shift();
        if (queue.length === 0) groups.delete(message.group);
      } else if (message.visibleAt === visibleBefore) {
        message.visibleAt = Date.now() + LOCAL_VISIBILITY_MS;
      }
    }
  };

  function pump(): void {
    if (stopped) return;
    const now = Date.now();
    for (const queue of groups.values()) {
      const head = queue[0];
      if (!head || head.inFlight || head.visibleAt > now) continue;
      const attempt: Promise<void> = receive(head)
        .catch(() => undefined)
        .finally(() => {
          running.delete(attempt);
          schedule();
        });
      running.add(attempt);
    }
    schedule();
  }

  registerLocalDeliveryQueue({
    send(deliveries: readonly QueuedDelivery[]) {
      const now = Date.now();
      for (const [id, at] of seen) if (now - at > DEDUPLICATION_MS) seen.delete(id);
      for (const delivery of deliveries) {
        if (seen.has(delivery.deduplicationId)) continue;
        seen.set(delivery.deduplicationId, now);
        const message: Message = {
          id: randomUUID(),
          body: JSON.stringify(delivery.message),
          group: delivery.groupId,
          receiveCount: 0,
          visibleAt: now,
          inFlight: false,
          receiptHandle: '',
          sentAt: now,
        };
        const queue = groups.get(delivery.groupId) ?? [];
        queue.push(message);
        groups.set(delivery.groupId, queue);
      }
      setImmediate(pump);
    },
    delay(receiptHandle: string, seconds: number) {
      const message = byHandle.get(receiptHandle);
      if (message) message.visibleAt = Date.now() + seconds * 1000;
    },
  });

  return {
    pending: () => [...groups.values()].reduce((total, queue) => total + queue.length, 0),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      registerLocalDeliveryQueue(undefined);
      await Promise.allSettled([...running]);
    },
  };
}
