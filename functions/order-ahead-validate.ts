/**
 * The order-ahead validation state machine's Task function (not an HTTP route, so it exports
 * `stepHandler`, not `handler`: the gateway can never serve it). Steps, named by each Task state's
 * Parameters (infra/constructs/order-ahead-workflow.ts):
 * - `validate`: checks and prices the stored order; read-only, so Retry may run it again freely.
 * - `record_valid` / `record_invalid`: write the outcome the Choice picked, once (conditional on
 *   the order still validating), with its event for the order's app (`app_id`, from `validate`).
 * - `record_failure`: the Catch's step; marks the order externally_invalid so it never stays validating.
 */
import * as z from '#shared/schemas/zod.ts';
import { log } from '#shared/log.ts';
import { publishMetrics, recordOrderAheadValidation } from '#shared/metrics.ts';
import { finishValidation, VALIDATION_FAILED } from '#shared/domain/order-ahead/orders.ts';
import type { PricedOrder } from '#shared/domain/order-ahead/pricing.ts';
import { validateProposedOrder, type ValidationOutcome } from '#shared/domain/order-ahead/validation.ts';

const errorDetailSchema = z.object({ object: z.string(), property: z.string(), message: z.string(), code: z.optional(z.string()) });

/** The order's app as `validate` read it; null for an order that does not exist (recording then reads, and finds none). */
const appId = z.pipe(
  z.nullable(z.number().check(z.int(), z.positive())),
  z.transform((value) => value ?? undefined),
);

const eventSchema = z.discriminatedUnion('step', [
  z.object({ step: z.literal('validate'), order_uuid: z.string().check(z.minLength(1)) }),
  z.object({ step: z.literal('record_valid'), order_uuid: z.string().check(z.minLength(1)), app_id: appId, priced: z.record(z.string(), z.unknown()) }),
  z.object({
    step: z.literal('record_invalid'),
    order_uuid: z.string().check(z.minLength(1)),
    app_id: appId,
    errors: z.array(errorDetailSchema).check(z.minLength(1)),
  }),
  z.object({
    step: z.literal('record_failure'),
    order_uuid: z.string().check(z.minLength(1)),
    failure: z.optional(z.object({ Error: z.optional(z.string()), Cause: z.optional(z.unknown()) })),
  }),
]);

export type ValidationTaskEvent = z.input<typeof eventSchema>;

export async function stepHandler(event: unknown): Promise<ValidationOutcome | { recorded: boolean }> {
  try {
    return await runStep(event);
  } finally {
    publishMetrics();
  }
}

async function runStep(event: unknown): Promise<ValidationOutcome | { recorded: boolean }> {
  const parsed = eventSchema.parse(event);
  switch (parsed.step) {
    case 'validate':
      return validateProposedOrder(parsed.order_uuid);
    case 'record_valid': {
      // The priced order is what this function's own `validate` step returned a moment ago.
      const recorded = await finishValidation(parsed.order_uuid, { priced: parsed.priced as unknown as PricedOrder }, parsed.app_id);
      log('info', 'order ahead order valid', { order_uuid: parsed.order_uuid, recorded });
      if (recorded) recordOrderAheadValidation('valid');
      return { recorded };
    }
    case 'record_invalid': {
      const recorded = await finishValidation(parsed.order_uuid, { errors: parsed.errors }, parsed.app_id);
      log('info', 'order ahead order invalid', { order_uuid: parsed.order_uuid, codes: parsed.errors.map((error) => error.code), recorded });
      if (recorded) recordOrderAheadValidation('invalid');
      return { recorded };
    }
    case 'record_failure': {
      const recorded = await finishValidation(parsed.order_uuid, { errors: [VALIDATION_FAILED] });
      log('error', 'order ahead validation failed', { order_uuid: parsed.order_uuid, error: parsed.failure?.Error, cause: parsed.failure?.Cause, recorded });
      if (recorded) recordOrderAheadValidation('failed');
      return { recorded };
    }
  }
}
