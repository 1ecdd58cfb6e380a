/**
 * Manager confirmation under guessing (issue 12, point 6; docs/security.md), through HTTP against the local
 * stack: the contract's 422 for the first wrong codes, then 429 with Retry-After for the order (5) or the
 * merchant (20) until the 15-minute window passes, even for the right code; concurrent guesses cannot outrun it.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { codesMatch } from '#shared/domain/merchants/manager-confirmation.ts';
import { MANAGER_CODE_MERCHANT_FAILURES, MANAGER_CODE_ORDER_FAILURES, windowKey } from '#shared/domain/rate-limits.ts';
import { getOrder } from '#shared/domain/orders/record.ts';
import { endWindow } from '../support/rate-limit-windows.ts';
import { useTestApi } from '../support/api.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';

const api = useTestApi();
const CODE = '87168';
const INCORRECT = [{ error: { object: 'refund', property: 'manager_confirmation', message: 'Manager confirmation was incorrect.' } }];

const refund = (world: OrderWorld, uuid: string, code: string | null | undefined, token = world.merchant.token) =>
  api.call('POST', `/v15/orders/${uuid}/refund`, { token, body: code === undefined ? undefined : { refund: { manager_confirmation: code } } });

async function completedOrder(world: OrderWorld): Promise<string> {
  const completed = await placeOrder(api, world);
  expect(completed.status, completed.text).toBe(200);
  return completed.body.order.uuid;
}

const orderWindow = (world: OrderWorld, uuid: string) => windowKey(MANAGER_CODE_ORDER_FAILURES, `${world.merchant.merchant.merchant_id}#${uuid}`);
const merchantWindow = (world: OrderWorld) => windowKey(MANAGER_CODE_MERCHANT_FAILURES, String(world.merchant.merchant.merchant_id));

async function windowCount(key: { pk: string; sk: string }): Promise<number> {
  return Number((await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item?.count ?? 0);
}

function expectLocked(response: Awaited<ReturnType<typeof refund>>) {
  expect(response.status, response.text).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(MANAGER_CODE_ORDER_FAILURES.windowSeconds);
  expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'refund', property: 'base', code: 'manager_confirmation_locked' }) }]);
}

describe('manager confirmation lockout', () => {
  it('15 wrong manager codes, then the right one: 422 for the first 5, then 429 with Retry-After until the window passes', async () => {
    const world = await orderWorld({ managerConfirmation: CODE });
    const uuid = await completedOrder(world);
    const answers = [];
    for (let attempt = 0; attempt < 15; attempt++) answers.push(await refund(world, uuid, String(10000 + attempt)));
    for (const answer of answers.slice(0, MANAGER_CODE_ORDER_FAILURES.limit)) {
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual(INCORRECT);
    }
    for (const answer of answers.slice(MANAGER_CODE_ORDER_FAILURES.limit)) expectLocked(answer);

    expectLocked(await refund(world, uuid, CODE));
    expect((await getOrder(uuid))?.state).toBe('completed');
    // Locked per order: another order at the merchant still refunds with the right code.
    const other = await completedOrder(world);
    expect((await refund(world, other, CODE)).status).toBe(200);

    await endWindow(orderWindow(world, uuid));
    const accepted = await refund(world, uuid, CODE);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.order.refunded_at).not.toBeNull();
  });

  it("20 wrong codes over a merchant's orders lock every refund there; another merchant is unaffected", async () => {
    const world = await orderWorld({ managerConfirmation: CODE });
    // One customer's orders are settled one at a time (docs/money.md): placed in turn.
    const orders: string[] = [];
    for (let index = 0; index < 6; index++) orders.push(await completedOrder(world));
    // 4 wrong codes on each of 5 orders: below the per-order limit, 20 at the merchant.
    for (const uuid of orders.slice(0, 5)) {
      for (let attempt = 0; attempt < 4; attempt++) expect((await refund(world, uuid, `wrong-${attempt}`)).status).toBe(422);
    }
    expectLocked(await refund(world, orders[5]!, CODE));
    expectLocked(await refund(world, orders[0]!, CODE));

    const elsewhere = await orderWorld({ managerConfirmation: CODE });
    expect((await refund(elsewhere, await completedOrder(elsewhere), CODE)).status).toBe(200);

    await endWindow(merchantWindow(world));
    expect((await refund(world, orders[5]!, CODE)).status).toBe(200);
  });

  it('30 concurrent wrong codes: exactly 5 are compared (422), the rest are 429', async () => {
    const world = await orderWorld({ managerConfirmation: CODE });
    const uuid = await completedOrder(world);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, attempt) => refund(world, uuid, `guess-${attempt}`)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(MANAGER_CODE_ORDER_FAILURES.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - MANAGER_CODE_ORDER_FAILURES.limit);
    // The 25 refused guesses hold nothing at the merchant: its window counts the 5 compared ones only.
    expect(await windowCount(merchantWindow(world))).toBe(MANAGER_CODE_ORDER_FAILURES.limit);
    expectLocked(await refund(world, uuid, CODE));
  });

  it('a missing or null code counts as wrong; the right code gives its attempt back', async () => {
    const world = await orderWorld({ managerConfirmation: CODE });
    const uuid = await completedOrder(world);
    expect((await refund(world, uuid, undefined)).status).toBe(422);
    expect((await refund(world, uuid, null)).status).toBe(422);
    expect((await refund(world, uuid, `${CODE} `)).status).toBe(422);
    expect(await windowCount(orderWindow(world, uuid))).toBe(3);
    expect((await refund(world, uuid, CODE)).status).toBe(200);
    expect(await windowCount(orderWindow(world, uuid))).toBe(3);
    expect(await windowCount(merchantWindow(world))).toBe(3);
  });

  it("another merchant's wrong codes are 401 and cannot lock this merchant's refunds", async () => {
    const world = await orderWorld({ managerConfirmation: CODE });
    const uuid = await completedOrder(world);
    const intruder = await merchantFixture(world.app.app_id, { managerConfirmation: CODE });
    for (let attempt = 0; attempt < 8; attempt++) expect((await refund(world, uuid, `x${attempt}`, intruder.token)).status).toBe(401);
    expect((await refund(world, uuid, CODE)).status).toBe(200);
  });

  it('a merchant without a code refunds without one, and nothing is counted', async () => {
    const world = await orderWorld();
    const uuid = await completedOrder(world);
    expect((await refund(world, uuid, 'anything')).status).toBe(200);
    expect(await windowCount(merchantWindow(world))).toBe(0);
  });
});

describe('codesMatch', () => {
  it('matches equal codes only, whatever the lengths', () => {
    expect(codesMatch(CODE, CODE)).toBe(true);
    expect(codesMatch(CODE, `${CODE}0`)).toBe(false);
    expect(codesMatch(CODE, CODE.slice(0, 4))).toBe(false);
    expect(codesMatch(CODE, '')).toBe(false);
    expect(codesMatch('', '')).toBe(true);
  });
});
