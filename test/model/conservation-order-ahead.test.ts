/**
 * Issue 33 point 8: the model-based test of conservation (test/support/conservation-model.ts) with order-ahead
 * orders among the operations: the local workflows charge them, and give them back when the merchant's ordering
 * provider rejects them (the second merchant's always does). Fewer sequences than test/model/conservation.test.ts:
 * each order ahead is polled once a second.
 */
process.env.DYNAMODB_FAULTS = 'rate=0,seed=1';

import { describe, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { assertConservation, conservationSettings } from '../support/conservation-model.ts';
import { startOrderAheadTestApi } from '../support/order-ahead.ts';
import { setFaultsActive } from '#shared/db/faults.ts';

const api = useTestApi(async () => {
  setFaultsActive(false);
  // Short waits between the workflow's questions to the provider; the sandbox providers answer at once.
  return startOrderAheadTestApi({ waitMs: 100, retryIntervalMs: 10 });
});

const { runs, timeLimitMs, seed } = conservationSettings({ runs: 8, timeLimitSeconds: 40 });

describe('conservation of money with order-ahead orders among the operations', () => {
  it(`holds for ${runs} random sequences`, { timeout: timeLimitMs + 90_000 }, async () => {
    // About one operation in six an order ahead.
    await assertConservation(api, { orderAheadWeight: 6, runs, timeLimitMs, seed });
  });
});
