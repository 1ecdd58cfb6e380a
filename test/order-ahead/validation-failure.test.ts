import { describe, expect, it } from 'vitest';
import { TASK_RETRY } from '../../infra/constructs/order-ahead-workflow.ts';
import { useTestApi } from '../support/api.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, pollUntilSettled, startOrderAheadTestApi, startPickup } from '../support/order-ahead.ts';

let validateCalls = 0;

// The Validate Task points at a handler that always throws; Retry, Catch and the failure step are the real definition's.
const api = useTestApi(() =>
  startOrderAheadTestApi({
    taskHandlers: {
      Validate: async () => {
        validateCalls += 1;
        throw new Error('injected: the validation function crashed');
      },
    },
    retryIntervalMs: 10,
  }),
);

describe('a validation function that throws', () => {
  it('is retried, then caught: the order ends externally_invalid, never stuck validating', async () => {
    const fixture = await orderAheadLocationFixture();
    const customer = await orderAheadUserFixture(fixture.app.app_id);
    const started = await startPickup(api, customer.token, fixture.location.location_id);
    expect(started.status).toBe(200);
    const { last } = await pollUntilSettled(api, started.body.order.order_url, customer.token);
    expect(last.status).toBe(422);
    expect(last.body).toEqual([{ error: expect.objectContaining({ object: 'order', property: 'base', code: 'validation_failed' }) }]);
    // The first attempt and the definition's MaxAttempts retries.
    expect(validateCalls).toBe(1 + TASK_RETRY.maxAttempts!);
  });
});
