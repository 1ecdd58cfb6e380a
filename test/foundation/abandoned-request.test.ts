/**
 * A request answered 503 `timeout` (middy's deadline, shared/http/handler.ts) is abandoned: the client was
 * told to retry, so its work must not commit a transaction after the answer (docs/reliability.md,
 * "Faults"). The pipeline puts middy's abort signal in scope and `transactWrite` refuses to send once
 * it is aborted (shared/db/request-deadline.ts). Real DynamoDB Local: the item is looked up afterwards.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { RequestAbandoned } from '#shared/db/request-deadline.ts';
import { putNew, transactWrite } from '#shared/db/transactions.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { useTestApi } from '../support/api.ts';
import { contextWithRemaining as contextOf, publicPostEvent } from '../support/lambda-invocation.ts';

useTestApi(); // a fresh table in DynamoDB Local, and the environment pointing at it

const REQUEST_ID = 'abandoned-request-test';
const event = publicPostEvent(REQUEST_ID);
const contextWithRemaining = (milliseconds: number) => contextOf(milliseconds, REQUEST_ID);

/** A handler whose work waits for `release`, then writes one new item in a transaction; `settled` tells how that ended. */
function slowWriter(key: { pk: string; sk: string }) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let settle!: (outcome: unknown) => void;
  const settled = new Promise<unknown>((resolve) => (settle = resolve));
  const handler = apiHandler('users-create', {}, async () => {
    await released;
    try {
      settle(await transactWrite(() => [putNew({ ...key, entity: 'AbandonedRequestProbe' })]));
    } catch (error) {
      settle(error);
      throw error;
    }
    return { status: 201, body: {} };
  });
  return { handler, release, settled };
}

const storedItem = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item;

describe('work of a request answered 503 timeout', () => {
  it('sends no transaction after the answer: nothing commits late', async () => {
    const key = { pk: `PROBE#${randomUUID()}`, sk: 'ITEM' };
    const { handler, release, settled } = slowWriter(key);
    const response = await handler(event, contextWithRemaining(60));
    expect(response.statusCode).toBe(503);
    release();
    expect(await settled).toBeInstanceOf(RequestAbandoned);
    expect(await storedItem(key)).toBeUndefined();
  });

  it('commits as usual when the work finishes in time (the same handler, the same item)', async () => {
    const key = { pk: `PROBE#${randomUUID()}`, sk: 'ITEM' };
    const { handler, release, settled } = slowWriter(key);
    release();
    const response = await handler(event, contextWithRemaining(10_000));
    expect(response.statusCode).toBe(201);
    expect(await settled).toEqual({ committed: true });
    expect(await storedItem(key)).toMatchObject({ entity: 'AbandonedRequestProbe' });
  });

  it('outside an HTTP request (a workflow step) transactions are never refused', async () => {
    const key = { pk: `PROBE#${randomUUID()}`, sk: 'ITEM' };
    expect(await transactWrite(() => [putNew({ ...key, entity: 'AbandonedRequestProbe' })])).toEqual({ committed: true });
  });
});
