/**
 * The app surface's loyalty calls (SDK reference A1-A4) through HTTP, with the reference's payloads:
 * the merchant loyalty record (C# on /v14, iOS and Android on /v15), rewards by location, the reward
 * summary, and pause / unpause by PUT on the merchant and location paths.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { locationFixture } from '../support/locations.ts';
import { campaignFixture, uniqueCode } from '../support/loyalty.ts';
import { clientPayload, missingKeys } from '../support/client-payloads.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { pausedCreditAccountKey } from '#shared/domain/loyalty/rewards.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';

const api = useTestApi();
let world: OrderWorld;
let merchantId: number;
let spend: CampaignItem;

const csharpLoyalty = clientPayload('csharp_v14_merchants_merchant_id_loyalty__show.json');
const iosLoyalty = clientPayload('ios_v15_merchants_merchant_id_loyalty__show.json');
const iosRewards = clientPayload('ios_v15_locations_id_rewards__list.json');
const docsPause = clientPayload('docs_v15_rewards_claim_id__pause.json');

beforeAll(async () => {
  world = await orderWorld({ credit: 300 });
  merchantId = world.merchant.merchant.merchant_id;
  spend = await campaignFixture(merchantId, 'spend', { required_spend_amount: 5000, earn_amount: 500 });
});

const loyalty = (token: string, version: 'v14' | 'v15' = 'v15', id = merchantId) => api.call('GET', `/${version}/merchants/${id}/loyalty`, { token });

/** The iOS SDK reads integers for every amount and count, a number for the percentage, a bool for the flag. */
function expectSdkTypes(record: Record<string, unknown>) {
  for (const [name, value] of Object.entries(record)) {
    if (name === 'merchant_loyalty_enabled') expect(typeof value, name).toBe('boolean');
    else if (name === 'progress_percentage') expect(typeof value, name).toBe('number');
    else expect(Number.isInteger(value), `${name} = ${String(value)}`).toBe(true);
  }
}

describe('GET /v15 and /v14 merchants/:merchant_id/loyalty (A1)', () => {
  it('answers a user with no history there a zero-valued record with every field the SDKs read', async () => {
    const { user, token } = await userFixture(world.app.app_id);
    const response = await loyalty(token);
    expect(response.status, response.text).toBe(200);
    expect(missingKeys(csharpLoyalty.response_body.loyalty, response.body.loyalty)).toEqual([]);
    for (const variant of iosLoyalty.variants) expect(missingKeys(variant.response_body.loyalty, response.body.loyalty)).toEqual([]);
    expectSdkTypes(response.body.loyalty);
    expect(response.body.loyalty).toEqual({
      merchant_earn_amount: 500,
      merchant_id: merchantId,
      merchant_loyalty_enabled: true,
      merchant_spend_amount: 5000,
      orders_count: 0,
      potential_credit_amount: 0,
      progress_percentage: 0,
      savings_amount: 0,
      spend_remaining_amount: 5000,
      total_volume_amount: 0,
      user_id: user.user_id,
    });
  });

  it('follows orders and refunds from the same progress and ledger as the rest: counts, volume, savings, credit', async () => {
    const token = world.user.token;
    const userId = world.user.user.user_id;
    // Order 1 applies the user's 300 of credit and tips 150: 2000 of qualifying spend is 40% of the goal.
    const first = await placeOrder(api, world, { spend_amount: 2000, tip_amount: 150, applied_discount_amount: 300 });
    expect(first.status, first.text).toBe(200);
    let record = (await loyalty(token)).body.loyalty;
    expect(record).toMatchObject({
      orders_count: 1,
      total_volume_amount: 2150,
      savings_amount: 300,
      progress_percentage: 40,
      spend_remaining_amount: 3000,
      potential_credit_amount: 0,
    });

    // Order 2 passes the goal: 500 earned (the credit account), 500 of progress left over (10%).
    const second = await placeOrder(api, world, { spend_amount: 3500 });
    expect(second.status, second.text).toBe(200);
    record = (await loyalty(token)).body.loyalty;
    expect(record).toMatchObject({ orders_count: 2, total_volume_amount: 5650, savings_amount: 300, progress_percentage: 10, spend_remaining_amount: 4500 });
    expect(record.potential_credit_amount).toBe((await getBalance(creditAccountKey(userId, merchantId))).balance);
    expect(record.potential_credit_amount).toBe(500);

    // The C# SDK: v14, user-tagged token; the same record.
    const v14 = await api.call('GET', `/v14/merchants/${merchantId}/loyalty`, { authorization: `token user="${token}"` });
    expect(v14.status).toBe(200);
    expect(v14.body).toEqual({ loyalty: record });

    // Refunding order 2 takes back its count, volume, the unused reward and its progress.
    const refund = await api.call('POST', `/v15/orders/${second.body.order.uuid}/refund`, { token: world.merchant.token, body: { refund: {} } });
    expect(refund.status, refund.text).toBe(200);
    record = (await loyalty(token)).body.loyalty;
    expect(record).toMatchObject({ orders_count: 1, total_volume_amount: 2150, savings_amount: 300, progress_percentage: 40, potential_credit_amount: 0 });
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('counts paused rewards in potential credit (they are the user’s, set aside)', async () => {
    const welcome = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('WELCOME'), value_amount: 250 });
    const { user, token } = await userFixture(world.app.app_id);
    const claim = await api.call('POST', `/v15/codes/${welcome.cohort_code}/claims`, { token });
    expect((await loyalty(token)).body.loyalty.potential_credit_amount).toBe(250);
    const paused = await api.call('PUT', `/v15/merchants/${merchantId}/rewards/claim-${claim.body.claim.id}`, { token, body: { reward: { paused: true } } });
    expect(paused.status, paused.text).toBe(200);
    expect((await getBalance(pausedCreditAccountKey(user.user_id, merchantId))).balance).toBe(250);
    expect((await loyalty(token)).body.loyalty.potential_credit_amount).toBe(250);
  });

  it('is disabled (zero goal) at a merchant without spend loyalty', async () => {
    const other = await orderWorld();
    const response = await loyalty(other.user.token, 'v15', other.merchant.merchant.merchant_id);
    expect(response.body.loyalty).toMatchObject({
      merchant_loyalty_enabled: false,
      merchant_spend_amount: 0,
      merchant_earn_amount: 0,
      progress_percentage: 0,
      spend_remaining_amount: 0,
    });
  });

  it('answers an unknown merchant 404 with an empty body (the C# SDK raises on it), a merchant token 401', async () => {
    for (const version of ['v14', 'v15'] as const) {
      const response = await loyalty(world.user.token, version, 99_999_999);
      expect(response.status).toBe(404);
      expect(response.text).toBe('');
    }
    expect((await loyalty(world.merchant.token)).status).toBe(401);
  });
});

describe('GET /v15/locations/:location_id/rewards and reward_summary (A2, A3)', () => {
  let location: number;
  let promo: CampaignItem;

  beforeAll(async () => {
    location = (await locationFixture(merchantId, { time_zone: 'America/Chicago' })).location_id;
    promo = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('PROMO'), value_amount: 200, tags: ['custom', 'merchant_funded'] });
  });

  it("lists the location's merchant rewards with the fields and types iOS reads (ids are strings)", async () => {
    const { token } = await userFixture(world.app.app_id);
    const claim = await api.call('POST', `/v15/codes/${promo.cohort_code}/claims`, { token });
    expect(claim.status).toBe(200);
    const response = await api.call('GET', `/v15/locations/${location}/rewards`, { token });
    expect(response.status, response.text).toBe(200);
    const held = response.body[0].reward;
    expect(missingKeys(iosRewards.response_body[0].reward, held)).toEqual([]);
    expect(held).toMatchObject({
      id: `claim-${claim.body.claim.id}`,
      source_campaign_id: promo.campaign_id,
      tags: ['custom', 'merchant_funded'],
      usable: true,
      usable_as_credit: true,
      usable_now: true,
      value_remaining_amount: 200,
      expires_at: null,
    });
    for (const { reward } of response.body) {
      expect(typeof reward.id).toBe('string');
      expect(Array.isArray(reward.tags)).toBe(true);
    }
    // The same list as the merchant's.
    const merchantList = await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token });
    expect(response.body).toEqual(merchantList.body);
  });

  it('without a token lists the offers a new user gets; an unknown location is 404 with an empty body', async () => {
    const anonymous = await api.call('GET', `/v15/locations/${location}/rewards`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.map((entry: { reward: { id: string } }) => entry.reward.id)).toContain(`campaign-${spend.campaign_id}`);
    for (const path of ['/v15/locations/99999999/rewards', '/v15/locations/99999999/reward_summary']) {
      const missing = await api.call('GET', path);
      expect(missing.status).toBe(404);
      expect(missing.text).toBe('');
    }
  });

  it('sums the rewards held: credit ones (not paused, not transfer-only) make up credit_amount', async () => {
    const { token } = await userFixture(world.app.app_id);
    const summary = () => api.call('GET', `/v15/locations/${location}/reward_summary`, { token });
    expect((await summary()).body).toEqual({ reward_summary: { credit_amount: 0, reward_count: 0, usable_as_credit_reward_count: 0 } });
    const claim = await api.call('POST', `/v15/codes/${promo.cohort_code}/claims`, { token });
    const second = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('SECOND'), value_amount: 100 });
    await api.call('POST', `/v15/codes/${second.cohort_code}/claims`, { token });
    const both = await summary();
    expect(both.status).toBe(200);
    expect(missingKeys(iosRewards.reward_summary_variant.response_body.reward_summary, both.body.reward_summary)).toEqual([]);
    expect(both.body.reward_summary).toEqual({ credit_amount: 300, reward_count: 2, usable_as_credit_reward_count: 2 });
    await api.call('PUT', `/v15/locations/${location}/rewards/claim-${claim.body.claim.id}`, { token, body: { reward: { paused: true } } });
    expect((await summary()).body.reward_summary).toEqual({ credit_amount: 100, reward_count: 2, usable_as_credit_reward_count: 1 });
    expect((await api.call('GET', `/v15/locations/${location}/reward_summary`)).body.reward_summary).toEqual({
      credit_amount: 0,
      reward_count: 0,
      usable_as_credit_reward_count: 0,
    });
  });
});

describe('PUT /v15/merchants/:merchant_id/rewards/:claim_id and the location path (A4)', () => {
  const put = (path: string, token: string, body: unknown) => api.call('PUT', path, { authorization: `token user="${token}"`, body });

  it('pauses with the docs body and answers the reward with the fields the docs show; unpauses with paused false', async () => {
    const welcome = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('PAUSE'), value_amount: 50 });
    const { user, token } = await userFixture(world.app.app_id);
    const claim = await api.call('POST', `/v15/codes/${welcome.cohort_code}/claims`, { token });
    const id = `claim-${claim.body.claim.id}`;
    const paused = await put(`/v15/merchants/${merchantId}/rewards/${id}`, token, docsPause.request_body);
    expect(paused.status, paused.text).toBe(200);
    expect(missingKeys(docsPause.response_body.reward, paused.body.reward)).toEqual([]);
    expect(paused.body.reward).toMatchObject({ id, pausable: true, paused: true, value_amount: 50, value_remaining_amount: 50 });
    expect((await getBalance(creditAccountKey(user.user_id, merchantId))).balance).toBe(0);
    // Repeating is a no-op; the old alias sees the same state.
    expect((await put(`/v15/merchants/${merchantId}/rewards/${id}`, token, docsPause.request_body)).body.reward.paused).toBe(true);
    const location = await locationFixture(merchantId);
    const unpaused = await put(`/v15/locations/${location.location_id}/rewards/${id}`, token, { reward: { paused: false } });
    expect(unpaused.body.reward).toMatchObject({ id, paused: false, usable_now: true });
    expect((await getBalance(creditAccountKey(user.user_id, merchantId))).balance).toBe(50);
    expect((await api.call('PUT', `/v15/rewards/${id}/pause`, { token })).body.reward.paused).toBe(true);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('pausing one gift card pauses all of the user’s gift cards at the merchant, and unpausing one unpauses all', async () => {
    const { user, token } = await userFixture(world.app.app_id);
    const ids: string[] = [];
    for (const value of [1000, 2500]) {
      const card = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('GIFT'), value_amount: value, tags: ['gift_card'] });
      ids.push(`claim-${(await api.call('POST', `/v15/codes/${card.cohort_code}/claims`, { token })).body.claim.id}`);
    }
    const plain = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('PLAIN'), value_amount: 100 });
    const plainId = `claim-${(await api.call('POST', `/v15/codes/${plain.cohort_code}/claims`, { token })).body.claim.id}`;
    const paused = await put(`/v15/merchants/${merchantId}/rewards/${ids[0]}`, token, { reward: { paused: true } });
    expect(paused.status, paused.text).toBe(200);
    const listed = (await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token })).body.map(
      (entry: { reward: { id: string; paused: boolean } }) => entry.reward,
    );
    const pausedOf = (id: string) => listed.find((reward: { id: string }) => reward.id === id).paused;
    expect([pausedOf(ids[0]!), pausedOf(ids[1]!), pausedOf(plainId)]).toEqual([true, true, false]);
    expect((await getBalance(pausedCreditAccountKey(user.user_id, merchantId))).balance).toBe(3500);
    expect((await getBalance(creditAccountKey(user.user_id, merchantId))).balance).toBe(100);
    await put(`/v15/merchants/${merchantId}/rewards/${ids[1]}`, token, { reward: { paused: false } });
    expect((await getBalance(pausedCreditAccountKey(user.user_id, merchantId))).balance).toBe(0);
    expect((await getBalance(creditAccountKey(user.user_id, merchantId))).balance).toBe(3600);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('refuses to pause pre-loaded credit (422, pausable false) and changes nothing', async () => {
    const preload = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('PRELOAD'), value_amount: 2000, tags: ['preload'] });
    const { user, token } = await userFixture(world.app.app_id);
    const id = `claim-${(await api.call('POST', `/v15/codes/${preload.cohort_code}/claims`, { token })).body.claim.id}`;
    const listed = await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token });
    expect(listed.body[0].reward).toMatchObject({ id, pausable: false });
    const refused = await put(`/v15/merchants/${merchantId}/rewards/${id}`, token, { reward: { paused: true } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual([{ error: { object: 'reward', property: 'base', message: 'Pre-loaded credit cannot be paused', code: 'not_pausable' } }]);
    expect((await getBalance(creditAccountKey(user.user_id, merchantId))).balance).toBe(2000);
  });

  it('answers 404 (empty) for a reward at another merchant or location, another user’s, or not a reward id; 422 for a bad body', async () => {
    const welcome = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('MINE'), value_amount: 75 });
    const { token } = await userFixture(world.app.app_id);
    const id = `claim-${(await api.call('POST', `/v15/codes/${welcome.cohort_code}/claims`, { token })).body.claim.id}`;
    const elsewhere = await orderWorld();
    const otherLocation = await locationFixture(elsewhere.merchant.merchant.merchant_id);
    const stranger = await userFixture(world.app.app_id);
    for (const [path, who] of [
      [`/v15/merchants/${elsewhere.merchant.merchant.merchant_id}/rewards/${id}`, token],
      [`/v15/locations/${otherLocation.location_id}/rewards/${id}`, token],
      [`/v15/merchants/${merchantId}/rewards/${id}`, stranger.token],
      [`/v15/merchants/${merchantId}/rewards/campaign-${welcome.campaign_id}`, token],
      [`/v15/locations/99999999/rewards/${id}`, token],
    ] as const) {
      const response = await put(path, who, { reward: { paused: true } });
      expect(response.status, path).toBe(404);
      expect(response.text).toBe('');
    }
    for (const body of [{}, { reward: {} }, { reward: { paused: 'yes' } }]) {
      const response = await put(`/v15/merchants/${merchantId}/rewards/${id}`, token, body);
      expect(response.status).toBe(422);
    }
  });
});
