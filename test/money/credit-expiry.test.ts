/**
 * Expiry per grant (issue 33 point 3, the red team's "expiring credit that never expires"): each expiring
 * grant of merchant-funded credit expires its own unspent remainder; spending draws from the earliest-
 * expiring value first; another grant's expiry, a claw-back or a paused reward never counts as spending a
 * grant. Time passes by moving the stored expiries into the past (test/support/credit-grants.ts).
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { creditLedger, grantCredit, openGrants, passGrantExpiry } from '../support/credit-grants.ts';
import { uniqueCode, campaignFixture } from '../support/loyalty.ts';
import { complete, orderWorld, propose, type OrderWorld } from '../support/money.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

const balance = async (world: OrderWorld) => (await getBalance(creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;
/** The POS's credit check (it expires due grants first). */
const creditCheck = (world: OrderWorld) =>
  api.call('GET', `/v15/locations/${world.location.location_id}/merchant_funded_credit?payment_token_data=${world.user.user.payment_token_data}`, {
    token: world.merchant.token,
  });
/** What the credit check shows. */
const shown = async (world: OrderWorld) => {
  const response = await creditCheck(world);
  expect(response.status, response.text).toBe(200);
  return response.body.merchant_funded_credit.discount_amount as number;
};
const grant = async (world: OrderWorld, value_amount: number, duration_in_seconds: number) => {
  const response = await grantCredit(api, world, { value_amount, duration_in_seconds });
  expect(response.status, response.text).toBe(204);
};
const expiries = async (world: OrderWorld) => (await creditLedger(world)).filter((entry) => entry.kind === 'credit_expired').map((entry) => entry.amount);

/** Proposes and completes an order applying `applied` of credit; returns the order's uuid. */
async function order(world: OrderWorld, spendAmount: number, applied = 0) {
  const proposed = await propose(api, world, { spend_amount: spendAmount });
  expect(proposed.status, proposed.text).toBe(200);
  const completed = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: spendAmount, applied_discount_amount: applied });
  expect(completed.status, completed.text).toBe(200);
  return completed.body.order.uuid as string;
}

/** A $5 welcome reward claimed by the world's user: non-expiring, pausable credit. */
async function claimWelcomeReward(world: OrderWorld): Promise<string> {
  const welcome = await campaignFixture(world.merchant.merchant.merchant_id, 'value', { cohort_code: uniqueCode('WELCOME'), value_amount: 500 });
  const claim = await api.call('POST', `/v15/codes/${welcome.cohort_code}/claims`, { token: world.user.token });
  expect(claim.status, claim.text).toBe(200);
  return `claim-${claim.body.claim.id}`;
}

describe('expiry per grant', () => {
  it("two grants, the first expiring before the second: after both, nothing of them is spendable (the first's expiry is not spending of the second)", async () => {
    const world = await orderWorld();
    // The red team's grants lasted 2 s and 6 s; these last longer so that no real second of a slow run
    // expires them before the test moves their time (the order of the two expiries is what matters).
    await grant(world, 1000, 2 * 3600);
    await grant(world, 1000, 6 * 3600);
    expect(await shown(world)).toBe(2000);
    await passGrantExpiry(world, 1);
    expect(await shown(world)).toBe(1000);
    await passGrantExpiry(world);
    expect(await shown(world)).toBe(0);
    expect(await balance(world)).toBe(0);
    expect(await expiries(world)).toEqual([-1000, -1000]);
    expect(await openGrants(world)).toEqual([]);
  });

  it('spending draws from the earliest-expiring grant first, then from a later one, and never from a reward while grant value lasts', async () => {
    const world = await orderWorld();
    await claimWelcomeReward(world);
    await grant(world, 1000, 3600); // expires last
    await grant(world, 1000, 60); // granted later, expires first
    expect(await shown(world)).toBe(2500);
    await order(world, 5000, 700);
    // The earlier-expiring grant keeps 300, the later one all 1,000, the reward its 500.
    await passGrantExpiry(world, 1);
    expect(await shown(world)).toBe(1500);
    await passGrantExpiry(world);
    expect(await shown(world)).toBe(500);
    expect((await expiries(world)).toSorted((a, b) => a - b)).toEqual([-1000, -300]);
  });

  it('a claw-back of earned credit is not spending of a grant: the whole grant expires and the debt stays', async () => {
    const world = await orderWorld();
    await campaignFixture(world.merchant.merchant.merchant_id, 'spend', { required_spend_amount: 1000, earn_amount: 500 });
    const earning = await order(world, 1000);
    await grant(world, 1000, 3600);
    expect(await balance(world)).toBe(1500);
    const refunded = await api.call('POST', `/v14/orders/${earning}/refund`, { token: world.merchant.token, body: { refund: {} } });
    expect(refunded.status, refunded.text).toBe(200);
    expect(await balance(world)).toBe(1000);
    await passGrantExpiry(world);
    expect(await shown(world)).toBe(0);
    expect(await balance(world)).toBe(0);
    expect(await expiries(world)).toEqual([-1000]);
  });

  it('a claw-back that leaves a debt is not repaid by expiring credit: what expires is the unspent grant, the debt remains for later earnings', async () => {
    const world = await orderWorld();
    await campaignFixture(world.merchant.merchant.merchant_id, 'spend', { required_spend_amount: 1000, earn_amount: 500 });
    const earning = await order(world, 1000);
    await order(world, 500, 500); // spends the earned 500
    expect((await api.call('POST', `/v14/orders/${earning}/refund`, { token: world.merchant.token, body: { refund: {} } })).status).toBe(200);
    expect(await balance(world)).toBe(-500);
    await grant(world, 1000, 3600);
    expect(await shown(world)).toBe(500);
    await order(world, 300, 200); // 800 of progress: earns nothing
    await passGrantExpiry(world);
    expect(await shown(world)).toBe(0);
    // 200 of the grant was spent, 800 expires; the 500 debt is still owed.
    expect(await expiries(world)).toEqual([-800]);
    expect(await balance(world)).toBe(-500);
  });

  it('a paused reward cannot keep grant value alive: the whole grant expires while it is paused, and unpausing brings back only the reward', async () => {
    const world = await orderWorld();
    const reward = await claimWelcomeReward(world);
    await grant(world, 1000, 3600);
    expect((await api.call('PUT', `/v15/rewards/${reward}/pause`, { token: world.user.token })).status).toBe(200);
    expect(await balance(world)).toBe(1000);
    await passGrantExpiry(world);
    expect(await shown(world)).toBe(0);
    expect(await expiries(world)).toEqual([-1000]);
    expect((await api.call('DELETE', `/v15/rewards/${reward}/pause`, { token: world.user.token })).status).toBe(200);
    expect(await shown(world)).toBe(500);
    expect(await balance(world)).toBe(500);
  });

  it('orders completing while the grant expires: it expires once, in full, and no order applies expired credit', async () => {
    const world = await orderWorld();
    await claimWelcomeReward(world);
    await grant(world, 1000, 3600);
    const proposals = await Promise.all(Array.from({ length: 4 }, () => propose(api, world, { spend_amount: 2000 })));
    for (const proposal of proposals) expect(proposal.body.proposed_order.discount_amount).toBe(1500);
    await passGrantExpiry(world);
    const [completions, checks] = await Promise.all([
      Promise.all(proposals.map((proposal) => complete(api, world, proposal.body.proposed_order.uuid, { spend_amount: 2000, applied_discount_amount: 200 }))),
      Promise.all([creditCheck(world), creditCheck(world)]),
    ]);
    // A race lost five times over answers 409 (retry), never a 5xx and never expired credit.
    for (const response of completions) expect([200, 409, 422], response.text).toContain(response.status);
    for (const response of checks) {
      expect([200, 409], response.text).toContain(response.status);
      if (response.status === 200) expect(response.body.merchant_funded_credit.discount_amount).toBeLessThanOrEqual(500);
    }
    const applied = completions.filter((response) => response.status === 200).length;
    expect(applied).toBeLessThanOrEqual(2); // only the 500 of the reward is left to apply
    expect(await expiries(world)).toEqual([-1000]);
    expect(await balance(world)).toBe(500 - 200 * applied);
  });

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
