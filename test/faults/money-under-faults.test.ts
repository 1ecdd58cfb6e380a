/**
 * Money under DynamoDB faults: with 10% of DynamoDB calls failing (throttles, 500s, timeouts, and
 * answers lost after the write was applied), POS clients that retry with the same keys converge on
 * exactly-once money. The faults are injected by shared/db/faults.ts into the one client the local
 * gateway's handlers and this file share; data is set up and checked with the faults switched off.
 */
process.env.DYNAMODB_FAULTS = 'rate=0.1,seed=42,kinds=throttle,500,timeout,after_commit,layer=call';
// Under layer=attempt the SDK retries each call once (2 attempts): some faults still get through.
process.env.AWS_MAX_ATTEMPTS = '2';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { table } from '#shared/db/client.ts';
import { scanAll } from '#shared/db/reads.ts';
import { setFaultsActive, type FaultLayer } from '#shared/db/faults.ts';
import { auditLedger, cardAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { startTestApi, useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { keptCharges, observeGateway, voidedCharges, type GatewayCalls } from './observed-gateway.ts';
import { callWithRetries, inParallel, newRetryLog, runUnderFaults } from './retrying-client.ts';

const USERS = 4;
const LOADS_PER_USER = 3;
const LOAD_AMOUNT = 2000;
const ORDERS_PER_USER = 4;
const CONCURRENCY = 4;

/** What the sandbox gateway was asked to do (the gateway is not a DynamoDB fake: it is the real sandbox, observed). */
let gatewayCalls: GatewayCalls;

// Faults stay off until a test turns them on: the setup below must not meet them.
const api = useTestApi(async () => {
  setFaultsActive(false);
  return startTestApi();
});
let merchant: Awaited<ReturnType<typeof merchantFixture>>;
let locationId: number;
let users: Awaited<ReturnType<typeof userFixture>>[];
const log = newRetryLog();

beforeAll(async () => {
  const { app } = await appFixture({ global: true });
  merchant = await merchantFixture(app.app_id);
  locationId = (await locationFixture(merchant.merchant.merchant_id)).location_id;
  users = [];
  for (let index = 0; index < USERS; index++) {
    const user = await userFixture(app.app_id);
    await addCreditCard(user.user.user_id, `fake-valid-nonce-faults-${user.user.user_id}`);
    users.push(user);
  }
  gatewayCalls = observeGateway();
});

afterAll(() => {
  setFaultsActive(false);
});

const LAYERS: readonly FaultLayer[] = ['call', 'attempt'];

describe('money under 10% DynamoDB faults, with clients that retry with the same keys', () => {
  const loads = (layer: FaultLayer) =>
    users.flatMap((user, userIndex) =>
      Array.from({ length: LOADS_PER_USER }, (_, index) => ({ user, externalIdentifier: `faults-${layer}-load-${userIndex}-${index}` })),
    );
  const loadResponses = new Map<string, any[]>();
  const completed: { uuid: string; proposedUuid: string; userId: number; key: string }[] = [];
  const refunded = new Set<string>();

  it.each(LAYERS)(
    'runs loads, completions and refunds to a final answer while DynamoDB fails (layer=%s)',
    async (layer) => {
      await runUnderFaults(layer, 42, log, `faults-${layer}-`, async () => {
        // Gift card loads, each sent by two POS terminals at once (same external_identifier).
        await inParallel(
          loads(layer).flatMap((load) => [load, load]),
          CONCURRENCY,
          async ({ user, externalIdentifier }, index) => {
            const response = await callWithRetries(
              api,
              log,
              `load ${externalIdentifier} #${index % 2}`,
              'POST',
              `/v15/merchants/${merchant.merchant.merchant_id}/gift_card_value_additions`,
              {
                token: merchant.token,
                body: {
                  gift_card_value_addition: {
                    payment_token_data: user.user.payment_token_data,
                    value_amount: LOAD_AMOUNT,
                    external_identifier: externalIdentifier,
                  },
                },
              },
            );
            expect(response.status, `${externalIdentifier}: ${response.text}`).toBe(200);
            loadResponses.set(externalIdentifier, [...(loadResponses.get(externalIdentifier) ?? []), response.body]);
          },
        );

        // Proposed then completed orders: 3000 + 500 tip, paid by gift card value first, then the card.
        const orders = users.flatMap((user, userIndex) =>
          Array.from({ length: ORDERS_PER_USER }, (_, index) => ({ user, label: `faults-${layer}-order-${userIndex}-${index}` })),
        );
        const completedHere: typeof completed = [];
        await inParallel(orders, CONCURRENCY, async ({ user, label }) => {
          const proposed = await callWithRetries(api, log, `propose ${label}`, 'POST', '/v15/proposed_orders', {
            token: merchant.token,
            headers: { 'Idempotency-Key': `${label}-propose` },
            body: { proposed_order: { location_id: locationId, payment_token_data: user.user.payment_token_data, spend_amount: 3000, tax_amount: 0 } },
          });
          expect(proposed.status, `${label} propose: ${proposed.text}`).toBe(200);
          const proposedUuid = proposed.body.proposed_order.uuid as string;
          const key = `${label}-complete`;
          const response = await callWithRetries(api, log, `complete ${label}`, 'POST', '/v15/completed_orders', {
            token: merchant.token,
            headers: { 'Idempotency-Key': key },
            body: {
              completed_order: {
                proposed_order_uuid: proposedUuid,
                location_id: locationId,
                payment_token_data: user.user.payment_token_data,
                spend_amount: 3000,
                tax_amount: 0,
                tip_amount: 500,
                applied_discount_amount: 0,
              },
            },
          });
          expect(response.status, `${label} complete: ${response.text}`).toBe(200);
          completedHere.push({ uuid: response.body.order.uuid, proposedUuid, userId: user.user.user_id, key });
        });

        // Refund every other order.
        completed.push(...completedHere);
        const toRefund = completedHere.filter((_, index) => index % 2 === 0);
        await inParallel(toRefund, CONCURRENCY, async (order) => {
          const response = await callWithRetries(api, log, `refund faults-${layer}-${order.uuid}`, 'POST', `/v15/orders/${order.uuid}/refund`, {
            token: merchant.token,
            headers: { 'Idempotency-Key': `refund-${order.uuid}` },
            body: { refund: {} },
          });
          expect(response.status, `refund ${order.uuid}: ${response.text}`).toBe(200);
          expect(response.body.order.refunded_at).toEqual(expect.any(String));
          refunded.add(order.uuid);
        });
      });
      // Dozens of operations retried through 10% faults: past the default minute on a loaded CI (seen), ~15 s alone.
    },
    180_000,
  );

  it('loaded each external_identifier exactly once, and every retry got the first answer', async () => {
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    const additions = items.filter((item) => item.entity === 'GiftCardAddition');
    expect(additions).toHaveLength(LAYERS.length * USERS * LOADS_PER_USER);
    for (const [externalIdentifier, responses] of loadResponses) {
      expect(additions.filter((addition) => addition.external_identifier === externalIdentifier)).toHaveLength(1);
      expect(new Set(responses.map((body) => JSON.stringify(body))).size, externalIdentifier).toBe(1);
    }
    const loadEntries = items.filter((item) => item.entity === 'LedgerEntry' && item.kind === 'gift_card_load');
    expect(loadEntries).toHaveLength(LAYERS.length * USERS * LOADS_PER_USER);
  });

  it('completed each order once and charged it once; every other charge was voided', async () => {
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    const orders = items.filter((item) => item.entity === 'Order');
    expect(orders).toHaveLength(LAYERS.length * USERS * ORDERS_PER_USER);
    expect(new Set(orders.map((order) => order.source_uuid)).size).toBe(LAYERS.length * USERS * ORDERS_PER_USER);
    const proposed = items.filter((item) => item.entity === 'ProposedOrder' && completed.some((order) => order.proposedUuid === item.uuid));
    expect(proposed.every((item) => item.state === 'completed')).toBe(true);

    const chargeEntries = items.filter((item) => item.entity === 'LedgerEntry' && item.kind === 'card_charge');
    const voided = voidedCharges(gatewayCalls);
    for (const order of orders) {
      const entries = chargeEntries.filter((entry) => entry.reference.order_uuid === order.uuid);
      if (order.charged_amount === 0) {
        expect(entries).toHaveLength(0);
        continue;
      }
      expect(entries).toHaveLength(1);
      expect(entries[0]!.reference.charge_id).toBe(order.charge_id);
      expect(entries[0]!.amount).toBe(order.charged_amount);
      expect(gatewayCalls.chargeIds).toContain(order.charge_id);
      expect(voided.has(order.charge_id), `order ${order.uuid} kept a voided charge`).toBe(false);
    }
    // Net of voids, the gateway holds exactly the orders' charges.
    expect(keptCharges(gatewayCalls)).toEqual(
      orders
        .filter((order) => order.charge_id)
        .map((order) => order.charge_id)
        .sort(),
    );
  });

  it('refunded each refunded order once, through one gateway refund', async () => {
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    const orders = items.filter((item) => item.entity === 'Order');
    expect(
      orders
        .filter((order) => order.state === 'refunded')
        .map((order) => order.uuid)
        .sort(),
    ).toEqual([...refunded].sort());
    const refundEntries = items.filter((item) => item.entity === 'LedgerEntry' && item.kind === 'card_refund');
    for (const uuid of refunded) {
      const order = orders.find((candidate) => candidate.uuid === uuid)!;
      expect(refundEntries.filter((entry) => entry.reference.order_uuid === uuid)).toHaveLength(order.charged_amount > 0 ? 1 : 0);
      const gatewayRefundKeys = new Set(
        gatewayCalls.refunds
          .filter((refund) => refund.chargeId === order.charge_id && !refund.idempotencyKey.endsWith(':void'))
          .map((refund) => refund.idempotencyKey),
      );
      expect(gatewayRefundKeys.size).toBeLessThanOrEqual(1);
    }
  });

  it('left balances equal to the distinct movements, no key stuck in progress, and the audit clean', async () => {
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    const orders = items.filter((item) => item.entity === 'Order');
    for (const user of users) {
      const userId = user.user.user_id;
      const merchantId = merchant.merchant.merchant_id;
      const kept = orders.filter((order) => order.user_id === userId && order.state === 'completed');
      const giftCard = await getBalance(giftCardAccountKey(userId, merchantId));
      expect(giftCard.balance).toBe(LAYERS.length * LOADS_PER_USER * LOAD_AMOUNT - kept.reduce((sum, order) => sum + order.gift_card_total_amount, 0));
      const card = await getBalance(cardAccountKey(userId, merchantId));
      expect(card.balance).toBe(kept.reduce((sum, order) => sum + order.charged_amount, 0));
      // Every order's 3500 was paid in full: gift card value plus card.
      for (const order of orders.filter((candidate) => candidate.user_id === userId)) expect(order.gift_card_total_amount + order.charged_amount).toBe(3500);
    }
    expect(items.filter((item) => item.entity === 'IdempotencyKey' && item.status !== 'COMPLETED')).toEqual([]);
    const audit = await auditLedger();
    expect(audit.mismatches).toEqual([]);
    expect(audit.entries).toBeGreaterThan(0);
  });
});
