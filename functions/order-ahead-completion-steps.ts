/**
 * The order-ahead completion state machine's Task function (not an HTTP route, so it exports
 * `stepHandler`: the gateway can never serve it). Steps, named by each Task state's Parameters
 * (infra/constructs/order-ahead-completion-workflow.ts), each safe to run again (shared/domain/order-ahead/fulfilment.ts):
 * - `charge`: the settlement saga, once; a decline comes back as `{charged: false, errors}`.
 * - `forward` / `check`: the ordering provider's answer (`accepted` records the completed order).
 * - `reject`: rejects with the reason the execution's state holds, reversing a charge first.
 */
import * as z from '#shared/schemas/zod.ts';
import { log } from '#shared/log.ts';
import { publishMetrics } from '#shared/metrics.ts';
import { chargeStep, checkStep, forwardStep, rejectionErrors, rejectOrder } from '#shared/domain/order-ahead/fulfilment.ts';

const eventSchema = z.discriminatedUnion('step', [
  z.object({ step: z.literal('charge'), order_uuid: z.string().check(z.minLength(1)) }),
  z.object({ step: z.literal('forward'), order_uuid: z.string().check(z.minLength(1)) }),
  z.object({ step: z.literal('check'), order_uuid: z.string().check(z.minLength(1)) }),
  // The whole execution state: the decline, the provider's answer or the failure caught says why.
  z.object({ step: z.literal('reject'), order_uuid: z.string().check(z.minLength(1)), state: z.record(z.string(), z.unknown()) }),
]);

export type CompletionTaskEvent = z.input<typeof eventSchema>;

export async function stepHandler(event: unknown): Promise<unknown> {
  try {
    return await runStep(event);
  } finally {
    // No request pipeline here to flush the metrics the settlement, the refund and the outcomes record.
    publishMetrics();
  }
}

async function runStep(event: unknown): Promise<unknown> {
  const parsed = eventSchema.parse(event);
  switch (parsed.step) {
    case 'charge':
      return chargeStep(parsed.order_uuid);
    case 'forward':
      return forwardStep(parsed.order_uuid);
    case 'check':
      return checkStep(parsed.order_uuid);
    case 'reject': {
      const errors = rejectionErrors(parsed.state);
      const failure = (parsed.state as { failure?: { Error?: string; Cause?: unknown } }).failure;
      if (failure) log('error', 'order ahead completion failed', { order_uuid: parsed.order_uuid, error: failure.Error, cause: failure.Cause });
      const order = await rejectOrder(parsed.order_uuid, errors);
      return { state: order.state };
    }
  }
}
