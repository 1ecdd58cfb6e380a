/**
 * Campaigns made and closed through the management API, as the app and POS routes see them (issue 38: "a campaign
 * created through this API serves the existing app and POS routes exactly as the admin-created ones do"): a spend
 * campaign made by an owner makes an order earn; once closed it earns nothing more, and the reward already earned
 * stays the user's and spendable. The ledger audit stays 0.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { useTestApi } from '../support/api.ts';
import { complete, orderWorld, placeOrder, propose, type OrderWorld } from '../support/money.ts';
import { merchantRoles } from '../support/staff.ts';

const api = useTestApi();

let world: OrderWorld;
let merchantId: number;
let owner: string;
let campaignId: number;

beforeAll(async () => {
  world = await orderWorld();
  ({ merchantId, owner } = await merchantRoles(world));
});

const campaignPath = (tail = '') => `/v15/merchants/${merchantId}/campaigns/${campaignId}${tail}`;

async function earnedRewards() {
  const response = await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token: world.user.token });
  expect(response.status, response.text).toBe(200);
  return (response.body as { reward: { id: string; source_campaign_id: number; value_amount: number; value_remaining_amount: number; usable: boolean } }[])
    .map((entry) => entry.reward)
    .filter((reward) => reward.id.startsWith('earned-'));
}

const credit = async () => (await getBalance(creditAccountKey(world.user.user.user_id, merchantId))).balance;

async function spendProgress() {
  const response = await api.call('GET', `/v15/campaigns/${campaignId}/spend_based_loyalty_v1`, { token: world.user.token });
  expect(response.status, response.text).toBe(200);
  return response.body.campaign.progress_amount as number;
}

async function closedEntries() {
  const response = await api.call('GET', `/v15/merchants/${merchantId}/audit_log?action=campaign.closed`, { token: owner });
  return response.status === 204
    ? []
    : (response.body as { audit_entry: { object: { id: string }; before: unknown; after: unknown } }[]).map((entry) => entry.audit_entry);
}

describe('a campaign made through the management API, in orders', () => {
  it('makes a completed order earn: a spend campaign created by the owner serves the POS and app routes', async () => {
    const created = await api.call('POST', `/v15/merchants/${merchantId}/campaigns`, {
      token: owner,
      body: { campaign: { kind: 'spend', title: 'Spend $20, get $3', required_spend_amount: 2000, earn_amount: 300 } },
    });
    expect(created.status, created.text).toBe(200);
    campaignId = created.body.campaign.id;
    const completed = await placeOrder(api, world, { spend_amount: 2500 });
    expect(completed.status, completed.text).toBe(200);
    expect(await earnedRewards()).toEqual([
      expect.objectContaining({ source_campaign_id: campaignId, value_amount: 300, value_remaining_amount: 300, usable: true }),
    ]);
    expect(await credit()).toBe(300);
    expect(await spendProgress()).toBe(500);
  });

  it('closes at a later time only up to its end, never in the past', async () => {
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await api.call('POST', campaignPath('/close'), { token: owner, body: { campaign: { closes_at: later } } });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.body.campaign).toMatchObject({ state: 'open', closes_at: later.replace(/\.\d{3}Z$/, '+00:00') });
    const past = await api.call('POST', campaignPath('/close'), { token: owner, body: { campaign: { closes_at: '2020-01-01T00:00:00Z' } } });
    expect(past.status, past.text).toBe(422);
    const beyond = await api.call('POST', campaignPath('/close'), {
      token: owner,
      body: { campaign: { closes_at: new Date(Date.now() + 2 * 86_400_000).toISOString() } },
    });
    expect(beyond.status, beyond.text).toBe(422);
    expect(beyond.body[0].error).toMatchObject({ property: 'closes_at', code: 'not_earlier' });
  });

  it("closes at once: it earns nothing afterwards, and the reward already earned stays the user's and spendable", async () => {
    const closed = await api.call('POST', campaignPath('/close'), { token: owner });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.campaign.state).toBe('closed');
    expect(Date.parse(closed.body.campaign.closes_at)).toBeLessThanOrEqual(Date.now());

    // Enough spend to earn twice over: nothing accrues, nothing is earned.
    const after = await placeOrder(api, world, { spend_amount: 5000 });
    expect(after.status, after.text).toBe(200);
    expect(await earnedRewards()).toHaveLength(1);
    expect(await spendProgress()).toBe(500);

    // The earned reward is still credit at the merchant: a proposal offers it, the completion spends it.
    expect((await earnedRewards())[0]).toMatchObject({ value_remaining_amount: 300, usable: true });
    const proposed = await propose(api, world, { spend_amount: 1000 });
    expect(proposed.body.proposed_order.discount_amount).toBe(300);
    const spent = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: 1000, applied_discount_amount: 300 });
    expect(spent.status, spent.text).toBe(200);
    expect(await credit()).toBe(0);
    expect((await earnedRewards())[0]).toMatchObject({ value_remaining_amount: 0 });
  });

  it('closing a closed campaign answers it as it is, and writes no second entry', async () => {
    const first = await api.call('GET', campaignPath(), { token: owner });
    const again = await api.call('POST', campaignPath('/close'), { token: owner, body: {} });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    const entries = (await closedEntries()).filter((entry) => entry.object.id === String(campaignId));
    // The scheduled close and the close at once.
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ before: { state: 'open' }, after: { state: 'closed', closes_at: first.body.campaign.closes_at } });
  });

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});
