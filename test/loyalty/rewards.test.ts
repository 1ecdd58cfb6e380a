import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { merchantFixture, userFixture } from '../support/fixtures.ts';
import { orderWorld, propose, type OrderWorld } from '../support/money.ts';
import { locationFixture } from '../support/locations.ts';
import { campaignFixture, uniqueCode } from '../support/loyalty.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';

const api = useTestApi();
let world: OrderWorld;
let merchantId: number;
let spend: CampaignItem;
let welcome: CampaignItem;
let giftForFriend: CampaignItem;
let lockedPromo: CampaignItem;

const REWARD_FIELDS = [
  'created_at',
  'description',
  'earned',
  'expires_at',
  'id',
  'pausable',
  'paused',
  'source_campaign_id',
  'tags',
  'title',
  'transfer_required',
  'transferable',
  'usable',
  'usable_as_credit',
  'usable_now',
  'value_amount',
  'value_remaining_amount',
];

beforeAll(async () => {
  world = await orderWorld();
  merchantId = world.merchant.merchant.merchant_id;
  spend = await campaignFixture(merchantId, 'spend', { tags: ['loyalty'] });
  welcome = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('WELCOME'), tags: ['merchant_funded'] });
  giftForFriend = await campaignFixture(merchantId, 'value', {
    title: 'Give a friend $3',
    value_amount: 300,
    transfer_required: true,
    cohort_code: uniqueCode('FRIEND'),
  });
  lockedPromo = await campaignFixture(merchantId, 'value', { locked: true, value_amount: 700, cohort_code: uniqueCode('VIP') });
});

const list = (query = '', token?: string) => api.call('GET', `/v15/merchants/${merchantId}/rewards${query}`, { token });
const ids = (body: { reward: { id: string } }[]) => body.map((entry) => entry.reward.id);
const credit = async () => (await getBalance(creditAccountKey(world.user.user.user_id, merchantId))).balance;

describe('GET /v15/merchants/:merchant_id/rewards', () => {
  it('without a token lists what a new user gets: open, unlocked campaign offers, in the contract fields', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([`campaign-${spend.campaign_id}`, `campaign-${welcome.campaign_id}`]);
    for (const entry of response.body) expect(Object.keys(entry.reward).sort()).toEqual(REWARD_FIELDS);
    expect(response.body[0].reward).toEqual({
      id: `campaign-${spend.campaign_id}`,
      title: spend.reward_title,
      description: spend.description,
      earned: false,
      created_at: spend.created_at,
      expires_at: null,
      pausable: false,
      paused: false,
      source_campaign_id: spend.campaign_id,
      tags: ['loyalty'],
      transfer_required: false,
      transferable: false,
      usable: false,
      usable_now: false,
      usable_as_credit: true,
      value_amount: 500,
      value_remaining_amount: null,
    });
  });

  it('includes rewards that must be transferred only when transfer_supported is true', async () => {
    expect(ids((await list('?transfer_supported=true')).body)).toContain(`campaign-${giftForFriend.campaign_id}`);
    for (const query of ['', '?transfer_supported=', '?transfer_supported=false']) {
      expect(ids((await list(query)).body)).not.toContain(`campaign-${giftForFriend.campaign_id}`);
    }
  });

  it("with a user token lists the user's claims first, and no longer offers a claimed promotion", async () => {
    const { token } = await userFixture(world.app.app_id);
    const claim = await api.call('POST', `/v15/codes/${welcome.cohort_code}/claims`, { token });
    expect(claim.status).toBe(200);
    const response = await list('', token);
    expect(ids(response.body)).toEqual([`claim-${claim.body.claim.id}`, `campaign-${spend.campaign_id}`]);
    expect(response.body[0].reward).toMatchObject({
      earned: false,
      usable: true,
      usable_now: true,
      pausable: true,
      paused: false,
      value_amount: 500,
      value_remaining_amount: 500,
      source_campaign_id: welcome.campaign_id,
      tags: ['merchant_funded'],
    });
  });

  it('offers a locked promotion only to users it is unlocked for', async () => {
    const { user, token } = await userFixture(world.app.app_id);
    expect(ids((await list('', token)).body)).not.toContain(`campaign-${lockedPromo.campaign_id}`);
    const unlock = await api.call('POST', '/v15/campaign_unlockings', {
      token: world.merchant.token,
      body: { campaign_unlocking: { target_campaign_id: lockedPromo.campaign_id, user_id: user.user_id } },
    });
    expect(unlock.status).toBe(204);
    expect(ids((await list('', token)).body)).toContain(`campaign-${lockedPromo.campaign_id}`);
  });

  it('answers usable_now in the time zone of the location nearest lat/lng', async () => {
    const merchant = await merchantFixture(world.app.app_id);
    const id = merchant.merchant.merchant_id;
    await locationFixture(id, { latitude: 35.68, longitude: 139.69, time_zone: 'Asia/Tokyo' });
    await locationFixture(id, { latitude: 18.47, longitude: -66.11, time_zone: 'America/Puerto_Rico' });
    // A five-hour window around the current Tokyo hour; Puerto Rico (13 hours behind) is outside it.
    const tokyoHour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
    const clock = (hour: number) => `${String((hour + 24) % 24).padStart(2, '0')}:00`;
    const happyHour = await campaignFixture(id, 'value', {
      cohort_code: uniqueCode('HAPPY'),
      usable_hours: { start: clock(tokyoHour - 2), end: clock(tokyoHour + 3) },
    });
    const { token } = await userFixture(world.app.app_id);
    expect((await api.call('POST', `/v15/codes/${happyHour.cohort_code}/claims`, { token })).status).toBe(200);
    const inTokyo = await api.call('GET', `/v15/merchants/${id}/rewards?lat=35.7&lng=139.7`, { token });
    const inSanJuan = await api.call('GET', `/v15/merchants/${id}/rewards?lat=18.4&lng=-66.1`, { token });
    expect(inTokyo.body[0].reward).toMatchObject({ usable: true, usable_now: true });
    expect(inSanJuan.body[0].reward).toMatchObject({ usable: true, usable_now: false });
  });

  it('answers 404 with an empty body for an unknown merchant, 422 for a bad lat/lng, 401 for a merchant token', async () => {
    for (const path of ['/v15/merchants/99999999/rewards', '/v15/merchants/abc/rewards']) {
      const response = await api.call('GET', path);
      expect(response.status).toBe(404);
      expect(response.text).toBe('');
    }
    const badLat = await list('?lat=north&lng=1');
    expect(badLat.status).toBe(422);
    expect(badLat.body[0].error).toMatchObject({ object: 'request', property: 'lat' });
    expect((await list('?lat=10')).status).toBe(422);
    expect((await list('', world.merchant.token)).status).toBe(401);
  });
});

describe('PUT / DELETE /v15/rewards/:reward_id/pause', () => {
  let rewardId: string;

  beforeAll(async () => {
    const claim = await api.call('POST', `/v15/codes/${welcome.cohort_code}/claims`, { token: world.user.token });
    rewardId = `claim-${claim.body.claim.id}`;
  });

  it('pauses a reward: it stays listed as paused, and the next proposed order no longer offers it', async () => {
    expect((await propose(api, world, { spend_amount: 2000 })).body.proposed_order.discount_amount).toBe(500);
    const response = await api.call('PUT', `/v15/rewards/${rewardId}/pause`, { token: world.user.token });
    expect(response.status).toBe(200);
    expect(response.body.reward).toMatchObject({ id: rewardId, paused: true, pausable: true, usable: true, usable_now: false, value_remaining_amount: 500 });
    expect(await credit()).toBe(0);
    expect((await propose(api, world, { spend_amount: 2000 })).body.proposed_order.discount_amount).toBe(0);
    const listed = (await list('', world.user.token)).body.find((entry: { reward: { id: string } }) => entry.reward.id === rewardId);
    expect(listed.reward.paused).toBe(true);
    // Pausing again changes nothing.
    expect((await api.call('PUT', `/v15/rewards/${rewardId}/pause`, { token: world.user.token })).status).toBe(200);
    expect(await credit()).toBe(0);
  });

  it('unpauses it with DELETE: the credit is offered again; the ledger stays consistent', async () => {
    const response = await api.call('DELETE', `/v15/rewards/${rewardId}/pause`, { token: world.user.token });
    expect(response.status).toBe(200);
    expect(response.body.reward).toMatchObject({ id: rewardId, paused: false, usable_now: true });
    expect(await credit()).toBe(500);
    expect((await propose(api, world, { spend_amount: 2000 })).body.proposed_order.discount_amount).toBe(500);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it("answers 404 with an empty body for another user's reward or an id that is not a reward id", async () => {
    const other = await userFixture(world.app.app_id);
    for (const id of [rewardId, 'claim-99999999', 'campaign-1', 'nonsense']) {
      const response = await api.call('PUT', `/v15/rewards/${id}/pause`, { token: other.token });
      expect(response.status, id).toBe(404);
      expect(response.text).toBe('');
    }
  });

  it('needs a user token with manage_user_campaigns (401)', async () => {
    expect((await api.call('PUT', `/v15/rewards/${rewardId}/pause`)).status).toBe(401);
    const limited = await userFixture(world.app.app_id, { permissions: ['read_user_basic_info'] });
    expect((await api.call('PUT', `/v15/rewards/${rewardId}/pause`, { token: limited.token })).status).toBe(401);
  });
});
