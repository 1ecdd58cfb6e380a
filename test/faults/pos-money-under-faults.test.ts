/**
 * The POS money operations (docs/pos.md, "Money" and "Remote checks") under DynamoDB faults, as
 * test/faults/money-under-faults.test.ts does for loads, completions and refunds: with 10% of DynamoDB
 * calls failing (throttles, 500s, timeouts, and answers lost after the write was applied), POS clients that
 * retry each request unchanged with its Idempotency-Key converge on exactly-once money. Each customer goes
 * through gift card value removals (by amount, and reversing an addition by its uuid from two terminals at
 * once), a one-step order, a detached refund sent twice at once under one key, merchant-funded credit grants
 * (one of them expiring during the run), progress adjustments and a remote check claimed and finalised.
 * The faults are injected by shared/db/faults.ts into the one client the local gateway's handlers and this
 * file share; data is set up and checked with the faults switched off.
 */
process.env.DYNAMODB_FAULTS = 'rate=0.1,seed=7,kinds=throttle,500,timeout,after_commit,layer=call';
process.env.AWS_MAX_ATTEMPTS = '2';

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { table } from '#shared/db/client.ts';
import { scanAll } from '#shared/db/reads.ts';
import { setFaultsActive, type FaultLayer } from '#shared/db/faults.ts';
import { auditLedger, cardAccountKey, creditAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { startTestApi, useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { loadGiftCard, orderWorld, type OrderWorld } from '../support/money.ts';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { keptCharges, observeGateway, voidedCharges, type GatewayCalls } from './observed-gateway.ts';
import { callWithRetries, inParallel, newRetryLog, runUnderFaults } from './retrying-client.ts';

const LAYERS: readonly FaultLayer[] = ['call', 'attempt'];
const CUSTOMERS_PER_LAYER = 3;
const MANAGER_CODE = '12345';

// What each customer's script moves (cents).
const LOADS = [2000, 1000] as const; // the second is reversed by its uuid (a load is at least $10)
const REMOVED_BY_AMOUNT = 200;
const ONE_STEP_SPEND = 3000; // paid by what is left of the gift card (1800), then the card (1200)
const DETACHED_CREDIT = 300;
const GRANT = 150;
const EXPIRING_GRANT = 100;
const EXPIRING_SECONDS = 2;
const ITEM_REWARD = 300; // campaignFixture 'item': 5 items earn $3
const CHECK_SPEND = 1000;
const CHECK_TIP = 100;

const api = useTestApi(async () => {
  setFaultsActive(false);
  return startTestApi();
});
const log = newRetryLog();
let world: OrderWorld;
let itemCampaignId: number;
let gateway: GatewayCalls;

interface Customer {
  layer: FaultLayer;
  label: string;
  userId: number;
  email: string;
  qr: string;
  userToken: string;
  reversedAddition: string;
}
const customers: Customer[] = [];
/** Every answer each client got, by request label (retries of one request must all end on one answer). */
const answers = new Map<string, unknown[]>();

beforeAll(async () => {
  world = await orderWorld({ managerConfirmation: MANAGER_CODE });
  itemCampaignId = (await campaignFixture(world.merchant.merchant.merchant_id, 'item')).campaign_id;
  for (const layer of LAYERS) {
    for (let index = 0; index < CUSTOMERS_PER_LAYER; index++) {
      const user = await userFixture(world.app.app_id);
      await addCreditCard(user.user.user_id, `fake-valid-nonce-pos-faults-${user.user.user_id}`);
      const additions: string[] = [];
      for (const value of LOADS) {
        const loaded = await loadGiftCard(api, world.merchant.token, world.merchant.merchant.merchant_id, {
          payment_token_data: user.user.payment_token_data,
          value_amount: value,
        });
        expect(loaded.status, loaded.text).toBe(200);
        additions.push(loaded.body.gift_card_value_addition.uuid);
      }
      customers.push({
        layer,
        label: `pos-faults-${layer}-${index}`,
        userId: user.user.user_id,
        email: user.email,
        qr: user.user.payment_token_data,
        userToken: user.token,
        reversedAddition: additions[1]!,
      });
    }
  }
  gateway = observeGateway();
});

afterAll(() => {
  setFaultsActive(false);
});

/** One request, retried by a well-behaved client until it has a final answer, which must be `status`. */
async function settled(label: string, status: number, method: string, path: string, options: Parameters<typeof callWithRetries>[5]) {
  const response = await callWithRetries(api, log, label, method, path, options);
  expect(response.status, `${label}: ${response.text}`).toBe(status);
  answers.set(label, [...(answers.get(label) ?? []), response.body]);
  return response;
}

/** Everything one customer does at the counter, in order, each money request under its own key. */
async function visit(customer: Customer): Promise<void> {
  const merchantId = world.merchant.merchant.merchant_id;
  const locationId = world.location.location_id;
  const merchant = { authorization: `token merchant="${world.merchant.token}"` };
  const key = (step: string) => ({ 'Idempotency-Key': `${customer.label}-${step}` });

  // P7: a gift card load corrected by amount, then another reversed by its uuid from two terminals at once.
  await settled(`${customer.label} removal`, 200, 'POST', `/v15/merchants/${merchantId}/gift_card_value_removals`, {
    ...merchant,
    headers: key('removal'),
    body: { gift_card_value_removal: { payment_token_data: customer.qr, value_amount: REMOVED_BY_AMOUNT, uuid: null } },
  });
  await Promise.all(
    ['a', 'b'].map((terminal) =>
      settled(`${customer.label} reversal`, 200, 'POST', `/v15/merchants/${merchantId}/gift_card_value_removals`, {
        ...merchant,
        headers: key(`reversal-${terminal}`),
        body: { gift_card_value_removal: { payment_token_data: customer.qr, value_amount: null, uuid: customer.reversedAddition } },
      }),
    ),
  );

  // P2: the one-step order, the customer named by the QR code or by the user token beside the merchant's.
  const byToken = customer.label.endsWith('1');
  await settled(`${customer.label} one-step`, 200, 'POST', '/v15/orders', {
    authorization: byToken ? `token merchant="${world.merchant.token}", user="${customer.userToken}"` : merchant.authorization,
    headers: key('one-step'),
    body: {
      order: {
        location_id: locationId,
        spend_amount: ONE_STEP_SPEND,
        tip_amount: 0,
        identifier_from_merchant: null,
        items: [],
        ...(byToken ? {} : { payment_token_data: customer.qr }),
      },
    },
  });

  // P8: a detached refund the POS sends twice at once under one key.
  await Promise.all(
    ['a', 'b'].map(() =>
      settled(`${customer.label} detached`, 200, 'POST', '/v15/detached_refunds', {
        ...merchant,
        headers: key('detached'),
        body: {
          detached_refund: {
            credit_amount: DETACHED_CREDIT,
            location_id: locationId,
            payment_token_data: customer.qr,
            manager_confirmation: MANAGER_CODE,
            cashier: 'Faults',
            register: '1',
          },
        },
      }),
    ),
  );

  // P9: a lasting grant and one that expires during the run.
  const grant = (step: string, fields: Record<string, unknown>) =>
    settled(`${customer.label} ${step}`, 204, 'POST', '/v15/merchant_funded_credits', {
      ...merchant,
      headers: key(step),
      body: { merchant_funded_credit: { email: customer.email, merchant_id: merchantId, message: 'Thanks', global: false, ...fields } },
    });
  await grant('grant', { value_amount: GRANT, duration_in_seconds: 86_400 });
  await grant('expiring-grant', { value_amount: EXPIRING_GRANT, duration_in_seconds: EXPIRING_SECONDS });
  const expiresAt = Date.now() + EXPIRING_SECONDS * 1000;

  // P10: 2 + 3 items reach the item campaign's 5: one reward, progress back to 0.
  for (const adjustment of [2, 3]) {
    await settled(`${customer.label} adjust ${adjustment}`, 204, 'POST', '/v15/progress_adjustments', {
      ...merchant,
      headers: key(`adjust-${adjustment}`),
      body: { progress_adjustment: { adjustment, audit_comment: 'faults', campaign_id: itemCampaignId, user_id: customer.userId, suppress_email: true } },
    });
  }

  // P16-P19: the POS publishes a check (no money: a retry may publish another), the app claims it, the POS finalises it.
  const published = await settled(`${customer.label} publish`, 200, 'PUT', '/v15/checks', {
    ...merchant,
    body: {
      check: {
        location_id: locationId,
        spend_amount: CHECK_SPEND,
        tax_amount: 0,
        exemption_amount: 0,
        partial_authorization_allowed: null,
        cashier: null,
        register: null,
        identifier_from_merchant: null,
        items: [],
      },
    },
  });
  const checkUuid = published.body.check.uuid as string;
  await settled(`${customer.label} claim`, 200, 'POST', `/v15/checks/${checkUuid}/orders`, {
    token: customer.userToken,
    body: { order: { tip_amount: CHECK_TIP } },
  });
  await settled(`${customer.label} finalise`, 200, 'POST', `/v15/checks/${checkUuid}/orders`, {
    ...merchant,
    headers: key('finalise'),
    body: { order: { applied_discount_amount: null, tax_amount: 0, spend_amount: CHECK_SPEND } },
  });

  // Past the expiry, the POS's credit check expires the grant (a ledger movement) and shows only what lasts.
  await sleep(Math.max(0, expiresAt - Date.now() + 100));
  const credit = await settled(
    `${customer.label} credit check`,
    200,
    'GET',
    `/v15/locations/${locationId}/merchant_funded_credit?payment_token_data=${customer.qr}`,
    merchant,
  );
  expect(credit.body.merchant_funded_credit.discount_amount).toBe(DETACHED_CREDIT + GRANT + ITEM_REWARD);
}

describe('POS money operations under 10% DynamoDB faults, with clients that retry with the same keys', () => {
  it.each(LAYERS)(
    'brings every operation to a final answer while DynamoDB fails (layer=%s)',
    async (layer) => {
      await runUnderFaults(layer, 7, log, `pos-faults-${layer}-`, () =>
        inParallel(
          customers.filter((customer) => customer.layer === layer),
          CUSTOMERS_PER_LAYER,
          visit,
        ),
      );
      // Retries through 10% faults: a loaded CI can take past the default minute, as the money fault test did.
    },
    180_000,
  );

  it('answered every retry and every duplicate of a request with its first answer', () => {
    for (const [label, bodies] of answers) {
      if (label.endsWith('publish') || label.endsWith('credit check')) continue; // not money: nothing to replay
      expect(new Set(bodies.map((body) => JSON.stringify(body))).size, label).toBe(1);
    }
  });

  it('applied each removal, detached refund, grant, expiry and progress reward exactly once', async () => {
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    const merchantId = world.merchant.merchant.merchant_id;
    for (const customer of customers) {
      const entries = (account: string) => items.filter((item) => item.entity === 'LedgerEntry' && item.account === account);
      const amounts = (account: string, kind: string) =>
        entries(account)
          .filter((entry) => entry.kind === kind)
          .map((entry) => entry.amount)
          .sort((a, b) => a - b);
      const giftCard = giftCardAccountKey(customer.userId, merchantId);
      const credit = creditAccountKey(customer.userId, merchantId);
      expect(amounts(giftCard, 'gift_card_removed'), customer.label).toEqual([-LOADS[1], -REMOVED_BY_AMOUNT]);
      expect(amounts(credit, 'detached_refund'), customer.label).toEqual([DETACHED_CREDIT]);
      expect(amounts(credit, 'credit_granted'), customer.label).toEqual([EXPIRING_GRANT, GRANT]);
      expect(amounts(credit, 'credit_expired'), customer.label).toEqual([-EXPIRING_GRANT]);
      expect(amounts(credit, 'credit_earned'), customer.label).toEqual([ITEM_REWARD]);
      expect(items.filter((item) => item.entity === 'ProgressAdjustment' && item.user_id === customer.userId)).toHaveLength(2);
      // Both adjustments counted once each: 5 items earned the reward and left no progress.
      const view = await api.call('GET', `/v15/campaigns/${itemCampaignId}/item_based_loyalty_v1`, { token: customer.userToken });
      expect(view.body.campaign.progress_item_count, customer.label).toBe(0);
      expect((await getBalance(giftCard)).balance, customer.label).toBe(0);
      expect((await getBalance(credit)).balance, customer.label).toBe(DETACHED_CREDIT + GRANT + ITEM_REWARD);
    }
  });

  it('completed each one-step order and each remote check once, and the gateway holds one charge per order', async () => {
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    const merchantId = world.merchant.merchant.merchant_id;
    const orders = items.filter((item) => item.entity === 'Order');
    const chargeEntries = items.filter((item) => item.entity === 'LedgerEntry' && item.kind === 'card_charge');
    const voided = voidedCharges(gateway);
    for (const customer of customers) {
      const theirs = orders.filter((order) => order.user_id === customer.userId);
      expect(
        theirs.map((order) => order.spend_amount + order.tip_amount).sort((a, b) => a - b),
        customer.label,
      ).toEqual([CHECK_SPEND + CHECK_TIP, ONE_STEP_SPEND]);
      // The gift card's 1800 left went to the one-step order; the rest of both orders to the card.
      expect(theirs.reduce((sum, order) => sum + order.gift_card_total_amount, 0)).toBe(LOADS[0] - REMOVED_BY_AMOUNT);
      for (const order of theirs) {
        expect(order.charged_amount, order.uuid).toBeGreaterThan(0);
        const entries = chargeEntries.filter((entry) => entry.reference.order_uuid === order.uuid);
        expect(entries).toHaveLength(1);
        expect(entries[0]!.amount).toBe(order.charged_amount);
        expect(voided.has(order.charge_id), `order ${order.uuid} kept a voided charge`).toBe(false);
      }
      expect((await getBalance(cardAccountKey(customer.userId, merchantId))).balance).toBe(
        ONE_STEP_SPEND + CHECK_SPEND + CHECK_TIP - (LOADS[0] - REMOVED_BY_AMOUNT),
      );
    }
    expect(orders).toHaveLength(2 * customers.length);
    expect(keptCharges(gateway)).toEqual(orders.map((order) => order.charge_id).sort());
    const checks = items.filter((item) => item.entity === 'Check' && item.state === 'completed');
    expect(checks).toHaveLength(customers.length);
  });

  it('recorded an event for each committed removal and earned reward, and for nothing else (issue 17)', async () => {
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    const merchantId = world.merchant.merchant.merchant_id;
    const events = items.filter((item) => item.entity === 'Event');
    for (const customer of customers) {
      const giftCardEvents = events.filter((event) => event.resource_type === 'gift_card' && event.resource_id === `${merchantId}-${customer.userId}`);
      const removals = items.filter(
        (item) => item.entity === 'LedgerEntry' && item.account === giftCardAccountKey(customer.userId, merchantId) && item.kind === 'gift_card_removed',
      );
      const removedEvents = giftCardEvents.filter((event) => event.type === 'gift_card.value_removed');
      expect(
        removedEvents.map((event) => JSON.parse(event.body_json).event.data.removed_value_amount).sort((a, b) => a - b),
        customer.label,
      ).toEqual(removals.map((entry) => -entry.amount).sort((a, b) => a - b));
      // The card's events (two loads, two removals) are numbered 1..n without gaps or repeats.
      expect(
        giftCardEvents.map((event) => event.sequence).sort((a, b) => a - b),
        customer.label,
      ).toEqual([1, 2, 3, 4]);
    }
    const ours = new Set(customers.map((customer) => customer.userId));
    const earned = items.filter((item) => item.entity === 'Reward' && item.source === 'earned' && ours.has(item.user_id));
    const rewardEvents = events.filter((event) => event.type === 'reward.earned' && earned.some((reward) => reward.reward_id === event.resource_id));
    expect(earned.length).toBeGreaterThanOrEqual(customers.length);
    // Exactly one event per earned reward (none for a reward whose transaction did not commit), all to the users' app.
    expect(rewardEvents.map((event) => event.resource_id).sort()).toEqual(earned.map((reward) => reward.reward_id).sort());
    expect(new Set(rewardEvents.map((event) => event.audience))).toEqual(new Set([`app:${world.app.app_id}`]));
    expect(
      events.filter((event) => event.type === 'reward.earned' && !items.some((item) => item.entity === 'Reward' && item.reward_id === event.resource_id)),
    ).toEqual([]);
  });

  it('left no key in progress and the ledger audit (npm run admin -- audit) clean', async () => {
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    expect(items.filter((item) => item.entity === 'IdempotencyKey' && item.status !== 'COMPLETED')).toEqual([]);
    const audit = await auditLedger();
    expect(audit.mismatches).toEqual([]);
    expect(audit.entries).toBeGreaterThan(0);
  });
});
