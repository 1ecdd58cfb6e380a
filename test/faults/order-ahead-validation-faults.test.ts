/**
 * The order-ahead state machine when DynamoDB fails under its Validate Task: the real task function runs,
 * and while it runs every DynamoDB call fails (500s and timeouts, shared/db/faults.ts). The definition's
 * Retry runs it again; if DynamoDB keeps failing, Catch records the order `externally_invalid`.
 * (test/order-ahead/validation-failure.test.ts covers a Task that throws by itself.)
 */
process.env.DYNAMODB_FAULTS = 'rate=1,seed=1,kinds=500,timeout';

import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFaultsActive } from '#shared/db/faults.ts';
import { stepHandler } from '../../functions/order-ahead-validate.ts';
import { TASK_RETRY } from '../../infra/constructs/order-ahead-workflow.ts';
import { useTestApi } from '../support/api.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, startOrderAheadTestApi, startPickup } from '../support/order-ahead.ts';

/** Validate attempts per order uuid, and how many of an order's first attempts DynamoDB fails. */
const attempts = new Map<string, number>();
const failingAttempts = new Map<string, number>();
/**
 * How many attempts fail for the next order started. The execution may run before the start request
 * answers (so before the test knows the uuid): the Task gives this to the first uuid it sees.
 */
let nextOrderFailures = 0;

const uuidOf = (input: unknown): string => String((input as { order_uuid?: unknown }).order_uuid);

const api = useTestApi(async () => {
  setFaultsActive(false);
  return startOrderAheadTestApi({
    taskHandlers: {
      Validate: async (input) => {
        const uuid = uuidOf(input);
        if (!failingAttempts.has(uuid)) failingAttempts.set(uuid, nextOrderFailures);
        const attempt = (attempts.get(uuid) ?? 0) + 1;
        attempts.set(uuid, attempt);
        setFaultsActive(attempt <= (failingAttempts.get(uuid) ?? 0));
        try {
          return await stepHandler(JSON.parse(JSON.stringify(input)));
        } finally {
          setFaultsActive(false);
        }
      },
    },
    retryIntervalMs: 10,
  });
});
afterAll(() => {
  setFaultsActive(false);
});

/** Polls as a client: once a second, and a 5xx (a poll that met the faults) is just polled again. */
async function settle(orderUrl: string, token: string) {
  for (let poll = 0; poll < 40; poll++) {
    const response = await api.call('GET', orderUrl, { token });
    if (response.status !== 202 && response.status !== 429 && response.status < 500) return response;
    await sleep(1_050);
  }
  throw new Error(`${orderUrl} still validating`);
}

async function startOrder(failFirstAttempts: number) {
  nextOrderFailures = failFirstAttempts;
  const fixture = await orderAheadLocationFixture();
  const customer = await orderAheadUserFixture(fixture.app.app_id);
  const started = await startPickup(api, customer.token, fixture.location.location_id);
  expect(started.status).toBe(200);
  return { uuid: started.body.order.uuid as string, customer, orderUrl: started.body.order.order_url as string };
}

describe('order-ahead validation while DynamoDB fails', () => {
  it('ends externally_invalid (not stuck validating) when DynamoDB fails on every attempt', async () => {
    const order = await startOrder(Number.POSITIVE_INFINITY);
    const last = await settle(order.orderUrl, order.customer.token);
    expect(last.status).toBe(422);
    expect(last.body).toEqual([{ error: expect.objectContaining({ object: 'order', property: 'base', code: 'validation_failed' }) }]);
    expect(attempts.get(order.uuid)).toBe(1 + TASK_RETRY.maxAttempts!);
  });

  it('is valid when DynamoDB recovers within the retries', async () => {
    const order = await startOrder(1);
    const last = await settle(order.orderUrl, order.customer.token);
    expect(last.status, last.text).toBe(200);
    expect(attempts.get(order.uuid)).toBe(2);
  });
});
