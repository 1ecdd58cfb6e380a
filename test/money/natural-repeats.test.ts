/**
 * Issue 34.2: no LevelUp SDK sends an Idempotency-Key, so a POS that lost an answer sends the same request
 * again. A completion (keyed by its proposal), a remote check's finalisation (by its check) and a refund (by its
 * order) are naturally idempotent: the repeat answers what the first did, and nothing moves twice, whether it
 * comes after the first committed or at the same moment. A repeat with other terms is a 422 that says so.
 */
import { describe, expect, it } from 'vitest';
import { auditLedger, cardAccountKey, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { observeGateway } from '../support/gateway.ts';
import { orderWorld, propose, type OrderWorld } from '../support/money.ts';

const api = useTestApi();
const gateway = observeGateway();

const completionRequest = clientPayload('csharp_v15_completed_orders__create.json').request_body.completed_order;
const refundRequest = clientPayload('csharp_v15_orders_uuid_refund__create.json').request_body_template;

/** The C# SDK's completion body for this world's proposal (no Idempotency-Key: the SDK sends none). */
const completion = (world: OrderWorld, proposedOrderUuid: string, fields: Record<string, unknown> = {}) =>
  api.call('POST', '/v15/completed_orders', {
    token: world.merchant.token,
    body: {
      completed_order: {
        ...completionRequest,
        proposed_order_uuid: proposedOrderUuid,
        location_id: world.location.location_id,
        payment_token_data: world.user.user.payment_token_data,
        ...fields,
      },
    },
  });

const refund = (world: OrderWorld, orderUuid: string) =>
  api.call('POST', `/v15/orders/${orderUuid}/refund`, { token: world.merchant.token, body: refundRequest });

const balances = async (world: OrderWorld) => {
  const [userId, merchantId] = [world.user.user.user_id, world.merchant.merchant.merchant_id];
  const [credit, card] = await Promise.all([getBalance(creditAccountKey(userId, merchantId)), getBalance(cardAccountKey(userId, merchantId))]);
  return { credit: credit.balance, card: card.balance, cardEntries: card.version };
};

/** A world whose customer can apply the SDK body's discount (100) to its spend (110): 10 is charged. */
async function proposed(): Promise<{ world: OrderWorld; uuid: string }> {
  const world = await orderWorld({ credit: 100 });
  const response = await propose(api, world, { spend_amount: completionRequest.spend_amount });
  expect(response.status, response.text).toBe(200);
  return { world, uuid: response.body.proposed_order.uuid };
}

function expectSameAnswers(responses: ApiResult[]) {
  for (const response of responses) expect(response.status, response.text).toBe(200);
  for (const response of responses.slice(1)) expect(response.text).toBe(responses[0]!.text);
}

describe('a completion sent again without an Idempotency-Key', () => {
  it('answers the stored completed order after the first committed: same uuid, same body, one charge', async () => {
    const { world, uuid } = await proposed();
    const observed = gateway.since();
    const first = await completion(world, uuid);
    const again = await completion(world, uuid);
    expectSameAnswers([first, again]);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(observed().charges).toHaveLength(1);
    expect(await balances(world)).toEqual({ credit: 0, card: 10, cardEntries: 1 });
  });

  it('answers both of two identical completions sent at once with the one order, charged once', async () => {
    const { world, uuid } = await proposed();
    const observed = gateway.since();
    const responses = await Promise.all([completion(world, uuid), completion(world, uuid)]);
    expectSameAnswers(responses);
    const calls = observed();
    expect(calls.charges).toHaveLength(1);
    expect(calls.refunds).toEqual([]);
    expect(await balances(world)).toEqual({ credit: 0, card: 10, cardEntries: 1 });
  });

  it('refuses a repeat with other terms with a 422 that says so, and charges nothing more', async () => {
    const { world, uuid } = await proposed();
    expect((await completion(world, uuid)).status).toBe(200);
    const observed = gateway.since();
    const other = await completion(world, uuid, { spend_amount: 500 });
    expect(other.status, other.text).toBe(422);
    expect(other.body).toEqual([
      {
        error: {
          object: 'order',
          property: 'base',
          code: 'differs_from_completed',
          message: 'This order was already completed with different terms; nothing was charged. Propose a new order for a new check.',
        },
      },
    ]);
    expect(observed().charges).toEqual([]);
    expect(await balances(world)).toEqual({ credit: 0, card: 10, cardEntries: 1 });
  });
});

describe('a refund sent again without an Idempotency-Key', () => {
  it('answers the refunded order after the first committed, refunding once', async () => {
    const { world, uuid } = await proposed();
    const completed = await completion(world, uuid);
    const observed = gateway.since();
    const first = await refund(world, completed.body.order.uuid);
    const again = await refund(world, completed.body.order.uuid);
    expectSameAnswers([first, again]);
    expect(first.body.order.refunded_at).not.toBeNull();
    expect(observed().refunds).toHaveLength(1);
    // The applied discount came back once; the card's charge went back once.
    expect(await balances(world)).toEqual({ credit: 100, card: 0, cardEntries: 2 });
  });

  it('answers both of two refunds sent at once with the one refunded order, refunding once', async () => {
    const { world, uuid } = await proposed();
    const completed = await completion(world, uuid);
    const observed = gateway.since();
    const responses = await Promise.all([refund(world, completed.body.order.uuid), refund(world, completed.body.order.uuid)]);
    expectSameAnswers(responses);
    // Both may ask the gateway, with the one key the order derives: one refund.
    expect(new Set(observed().refunds.map((request) => request.idempotencyKey)).size).toBe(1);
    expect(await balances(world)).toEqual({ credit: 100, card: 0, cardEntries: 2 });
  });
});

describe('the ledger after every repeat', () => {
  it('audits to 0', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
