/**
 * Bodies that nest deep or hold many values (issue 33, attack 5): an order whose items nest 400 levels through
 * `children` (29 KB) overflowed the validator's stack on a process's first request (500), while warm it got
 * a 422. The pipeline bounds every body's depth and value count before any schema runs.
 *
 * Cold means the function's first request in a fresh module graph: every test file gets its own (vitest
 * isolates files), the local gateway imports a function at its first request, and nothing in this file
 * parses an order or check body before the first test.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { contextWithRemaining } from '../support/lambda-invocation.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';
import { cardAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { MAX_JSON_DEPTH, MAX_JSON_NODES } from '#shared/http/validation.ts';
import { MAX_ITEM_NESTING } from '#shared/schemas/money.ts';

const api = useTestApi();

/** One order line whose modifiers nest `depth` levels through `children`. */
function nestedItems(depth: number): unknown[] {
  let children: unknown[] = [];
  for (let level = 0; level < depth; level++) children = [{ item: { name: 'Modifier', description: '', charged_price_amount: 0, quantity: 1, children } }];
  return children;
}

const tooDeep = [
  {
    error: {
      object: 'request',
      property: 'body',
      message: `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`,
      code: 'too_deep',
    },
  },
];

const orderWith = (world: OrderWorld, items: unknown, authorization = `token merchant="${world.merchant.token}", user="${world.user.token}"`) =>
  api.call('POST', '/v15/orders', { authorization, body: { order: { location_id: world.location.location_id, spend_amount: 10, items } } });
const checkWith = (world: OrderWorld, items: unknown) =>
  api.call('PUT', '/v15/checks', { token: world.merchant.token, body: { check: { location_id: world.location.location_id, spend_amount: 10, items } } });

let world: OrderWorld;

describe('deeply nested and oversized JSON bodies', () => {
  it('answers the same 422 to 400 levels of children on the first request of a fresh process and on the next ones', async () => {
    world = await orderWorld();
    const items = nestedItems(400);
    const cold = await Promise.all([orderWith(world, items), checkWith(world, items)]);
    const warm = await Promise.all([orderWith(world, items), checkWith(world, items)]);
    for (const response of [...cold, ...warm]) {
      expect(response.status, response.text).toBe(422);
      expect(response.body).toEqual(tooDeep);
    }
    // Nothing was charged.
    expect((await getBalance(cardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance).toBe(0);
  });

  it('answers the same 422 on the first invocation of a freshly imported handler (a new Lambda instance), whatever ran before', async () => {
    const body = JSON.stringify({ order: { location_id: world.location.location_id, spend_amount: 10, items: nestedItems(400) } });
    const authorization = `token merchant="${world.merchant.token}", user="${world.user.token}"`;
    for (const [file, method, path] of [
      ['orders-create', 'POST', '/v15/orders'],
      ['checks-create', 'PUT', '/v15/checks'],
    ] as const) {
      // A new module graph: the function, its schemas and the pipeline evaluated again, as a cold start does.
      vi.resetModules();
      const { handler } = (await import(`../../functions/${file}.ts`)) as {
        handler: (event: APIGatewayProxyEventV2, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
      };
      const event = {
        rawPath: path,
        headers: { host: 'localhost', authorization, 'content-type': 'application/json' },
        body: file === 'checks-create' ? body.replace('"order"', '"check"') : body,
        isBase64Encoded: false,
        requestContext: { requestId: `cold-${file}`, http: { method, path, sourceIp: '127.0.0.1' } },
      } as unknown as APIGatewayProxyEventV2;
      const response = await handler(event, contextWithRemaining(10_000, `cold-${file}`));
      expect(response.statusCode, response.body).toBe(422);
      expect(JSON.parse(response.body!)).toEqual(tooDeep);
    }
  });

  it('still lets the schema answer nesting within the bound, and takes the deepest order it allows', async () => {
    const deepest = await orderWith(world, nestedItems(MAX_ITEM_NESTING));
    expect(deepest.status, deepest.text).toBe(200);
    const oneMore = await orderWith(world, nestedItems(MAX_ITEM_NESTING + 1));
    expect(oneMore.status).toBe(422);
    expect(oneMore.body[0].error).toMatchObject({ object: 'order', property: 'items' });
  });

  it('refuses a body of more values than the bound, within the size limit', async () => {
    const padding = new Array(MAX_JSON_NODES).fill(0);
    const response = await orderWith(world, padding);
    expect(response.status).toBe(422);
    expect(response.body).toEqual([
      { error: { object: 'request', property: 'body', message: `The request body holds more than ${MAX_JSON_NODES} values.`, code: 'too_many_values' } },
    ]);
  });

  it('answers 401 first to a deep body without a valid token', async () => {
    const response = await orderWith(world, nestedItems(400), 'token merchant="invalid"');
    expect(response.status).toBe(401);
  });
});
