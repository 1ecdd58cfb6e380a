/**
 * Bounds on merchant-funded credit given by hand (issue 33 point 2 and its first attack; docs/money.md, "Caps and
 * budgets"): a cap per operation (progress adjustments, credit grants, detached refunds) and a daily budget per
 * merchant, set with `npm run admin -- set-credit-budget`, both in the money transaction. Over either: 422 in the
 * error format, nothing written; concurrent grants cannot pass the budget together; the ledger audits to 0.
 */
import { describe, expect, it } from 'vitest';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { runAdmin } from '../support/admin.ts';
import { clientPayload as payload } from '../support/client-payloads.ts';
import { userFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { orderWorld, placeOrder, propose, type OrderWorld } from '../support/money.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { budgetDay, DEFAULT_DAILY_CREDIT_BUDGET, PER_OPERATION_CAP } from '#shared/domain/money/merchant-budget.ts';

const api = useTestApi();

const grantsReference = payload('docs_v15_merchant_funded_credits__create.json');
const adjustmentReference = payload('docs_v15_progress_adjustments__create.json');
const detachedReference = payload('csharp_v15_detached_refunds__create.json');

const merchantOf = (world: OrderWorld) => world.merchant.merchant.merchant_id;
const creditOf = async (world: OrderWorld, userId = world.user.user.user_id) => (await getBalance(creditAccountKey(userId, merchantOf(world)))).balance;

const grant = (world: OrderWorld, valueAmount: number, email = world.user.email) =>
  api.call('POST', '/v15/merchant_funded_credits', {
    authorization: `token merchant="${world.merchant.token}"`,
    body: {
      merchant_funded_credit: { ...grantsReference.request_body.merchant_funded_credit, email, merchant_id: merchantOf(world), value_amount: valueAmount },
    },
  });
const adjust = (world: OrderWorld, campaignId: number, adjustment: number) =>
  api.call('POST', '/v15/progress_adjustments', {
    authorization: `token merchant="${world.merchant.token}"`,
    body: {
      progress_adjustment: { ...adjustmentReference.request_body.progress_adjustment, user_id: world.user.user.user_id, campaign_id: campaignId, adjustment },
    },
  });
const refundDetached = (world: OrderWorld, creditAmount: number) =>
  api.call('POST', '/v15/detached_refunds', {
    token: world.merchant.token,
    body: {
      detached_refund: {
        ...detachedReference.request_body.detached_refund,
        location_id: world.location.location_id,
        payment_token_data: world.user.user.payment_token_data,
        manager_confirmation: null,
        identifier_from_merchant: null,
        credit_amount: creditAmount,
      },
    },
  });
const visitsOf = async (world: OrderWorld, campaignId: number) =>
  (await api.call('GET', `/v15/campaigns/${campaignId}/visit_based_loyalty_v1`, { token: world.user.token })).body.campaign.progress_visit_count as number;

/** `npm run admin -- set-credit-budget ...` against the test's table; the printed JSON. */
async function setBudget(args: string[]) {
  const result = await runAdmin(['set-credit-budget', ...args], api);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { merchant_id: number; daily_credit_budget_amount: number };
}

function expectRefusal(response: ApiResult, object: string, property: string, code: 'over_operation_cap' | 'over_daily_credit_budget') {
  expect(response.status, response.text).toBe(422);
  expect(response.body).toEqual([{ error: { object, property, message: expect.any(String), code } }]);
}

describe('a cap on every operation that gives credit by hand', () => {
  it("refuses the red team's progress adjustment of 1,000,000 visits: 422, no progress, no reward, no credit to spend", async () => {
    const world = await orderWorld();
    const visits = await campaignFixture(merchantOf(world), 'visit');
    const attack = await adjust(world, visits.campaign_id, 1_000_000);
    expectRefusal(attack, 'progress_adjustment', 'adjustment', 'over_operation_cap');
    expect(attack.body[0].error.message).toBe('This would give $1333332.00 of credit; at most $500.00 may be given at once.');
    expect(await visitsOf(world, visits.campaign_id)).toBe(0);
    expect(await creditOf(world)).toBe(0);
    // A $1,000 order is offered nothing.
    expect((await propose(api, world, { spend_amount: 100_000 })).body.proposed_order.discount_amount).toBe(0);
  });

  it('lets one adjustment earn up to $500 of rewards and refuses a cent more', async () => {
    const world = await orderWorld();
    const visits = await campaignFixture(merchantOf(world), 'visit');
    // 3 visits earn $4: 378 visits would be 126 rewards ($504), 375 are 125 ($500).
    expectRefusal(await adjust(world, visits.campaign_id, 378), 'progress_adjustment', 'adjustment', 'over_operation_cap');
    expect(await creditOf(world)).toBe(0);
    expect((await adjust(world, visits.campaign_id, 375)).status).toBe(204);
    expect(await creditOf(world)).toBe(PER_OPERATION_CAP.progress_adjustment);
    // Progress short of a reward and a negative adjustment give nothing, so nothing bounds them.
    expect((await adjust(world, visits.campaign_id, 2)).status).toBe(204);
    expect((await adjust(world, visits.campaign_id, -1_000_000)).status).toBe(204);
    expect(await visitsOf(world, visits.campaign_id)).toBe(0);
  });

  it('refuses a detached refund over $1,000 even when the customer spent more; $1,000 is fine', async () => {
    const world = await orderWorld();
    for (let order = 0; order < 2; order++) expect((await placeOrder(api, world, { spend_amount: 100_000 })).status).toBe(200);
    const over = await refundDetached(world, PER_OPERATION_CAP.detached_refund + 1);
    expectRefusal(over, 'detached_refund', 'credit_amount', 'over_operation_cap');
    expect(await creditOf(world)).toBe(0);
    const within = await refundDetached(world, PER_OPERATION_CAP.detached_refund);
    expect(within.status, within.text).toBe(200);
    expect(await creditOf(world)).toBe(PER_OPERATION_CAP.detached_refund);
  });
});

describe('a daily budget per merchant', () => {
  it('counts grants, adjustments and detached refunds together; over it: 422 base, nothing written; --clear restores the default', async () => {
    const world = await orderWorld();
    expect((await placeOrder(api, world, { spend_amount: 5000 })).status).toBe(200);
    expect(await setBudget(['--merchant-id', String(merchantOf(world)), '--daily-amount', '1000'])).toEqual({
      merchant_id: merchantOf(world),
      daily_credit_budget_amount: 1000,
      default: false,
    });
    expect((await grant(world, 600)).status).toBe(204);
    const overGrant = await grant(world, 500);
    expectRefusal(overGrant, 'merchant_funded_credit', 'base', 'over_daily_credit_budget');
    expect(overGrant.body[0].error.message).toContain('daily limit of $10.00');
    // 3 visits earn $4: 600 + 400 fills the day.
    const visits = await campaignFixture(merchantOf(world), 'visit');
    expect((await adjust(world, visits.campaign_id, 3)).status).toBe(204);
    expectRefusal(await refundDetached(world, 1), 'detached_refund', 'base', 'over_daily_credit_budget');
    expectRefusal(await adjust(world, visits.campaign_id, 3), 'progress_adjustment', 'base', 'over_daily_credit_budget');
    // The refused adjustment moved no progress either.
    expect(await visitsOf(world, visits.campaign_id)).toBe(0);
    expect(await creditOf(world)).toBe(1000);
    const [counter] = await readItems([keys.merchantCreditDay(merchantOf(world), budgetDay())], { consistent: true });
    expect(counter).toMatchObject({ issued: 1000, credit_grant_amount: 600, progress_adjustment_amount: 400 });

    expect(await setBudget(['--merchant-id', String(merchantOf(world)), '--clear'])).toEqual({
      merchant_id: merchantOf(world),
      daily_credit_budget_amount: DEFAULT_DAILY_CREDIT_BUDGET,
      default: true,
    });
    expect((await grant(world, 500)).status).toBe(204);
    expect((await refundDetached(world, 100)).status).toBe(200);
    expect(await creditOf(world)).toBe(1600);
  });

  it('a budget of 0 turns giving credit by hand off', async () => {
    const world = await orderWorld();
    await setBudget(['--merchant-id', String(merchantOf(world)), '--daily-amount', '0']);
    expectRefusal(await grant(world, 1), 'merchant_funded_credit', 'base', 'over_daily_credit_budget');
    expect(await creditOf(world)).toBe(0);
  });

  it('concurrent grants to eight customers cannot pass the budget together: exactly what fits is given', async () => {
    const world = await orderWorld();
    await setBudget(['--merchant-id', String(merchantOf(world)), '--daily-amount', '1000']);
    const customers = await Promise.all(Array.from({ length: 8 }, () => userFixture(world.app.app_id)));
    const outcomes = await Promise.all(
      customers.map(async (customer) => {
        // A lost race answers 409 with Retry-After: the POS retries it.
        let response = await grant(world, 200, customer.email);
        for (let retry = 0; retry < 20 && response.status === 409; retry++) {
          expect(response.headers.get('retry-after')).toBeTruthy();
          response = await grant(world, 200, customer.email);
        }
        return response;
      }),
    );
    const given = outcomes.filter((response) => response.status === 204);
    expect(given).toHaveLength(5);
    for (const refused of outcomes.filter((response) => response.status !== 204))
      expectRefusal(refused, 'merchant_funded_credit', 'base', 'over_daily_credit_budget');
    let total = 0;
    for (const customer of customers) total += await creditOf(world, customer.user.user_id);
    expect(total).toBe(1000);
  }, 60_000);

  it('set-credit-budget refuses bad input and an unknown merchant', async () => {
    const world = await orderWorld();
    const merchantId = String(merchantOf(world));
    for (const args of [
      ['--merchant-id', merchantId],
      ['--merchant-id', merchantId, '--daily-amount', '5', '--clear'],
      ['--merchant-id', merchantId, '--daily-amount', '-5'],
      ['--merchant-id', merchantId, '--daily-amount', '1000000001'],
      ['--daily-amount', '5'],
    ]) {
      expect((await runAdmin(['set-credit-budget', ...args], api)).code, args.join(' ')).toBe(2);
    }
    const missing = await runAdmin(['set-credit-budget', '--merchant-id', '999999999', '--daily-amount', '1000'], api);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Merchant 999999999 does not exist');
    // Six admin processes, each a tsx start: a loaded CI outlasts the default minute (seen at load 17).
  }, 180_000);

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
