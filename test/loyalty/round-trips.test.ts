// Counts, not timings: with DYNAMODB_STATS=1 every handler reports its DynamoDB calls in
// X-DynamoDB-Round-Trips. The variable is read when the db client and the handlers are first created,
// so it is set before anything that creates them is imported.
process.env.DYNAMODB_STATS = '1';

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';

const { useTestApi } = await import('../support/api.ts');
const { appFixture, merchantFixture, userFixture } = await import('../support/fixtures.ts');
const { campaignFixture, uniqueCode } = await import('../support/loyalty.ts');
const { unlockCampaign } = await import('#shared/domain/loyalty/unlocks.ts');
const { db, table } = await import('#shared/db/client.ts');
const { keys } = await import('#shared/db/keys.ts');

const api = useTestApi();
let appId: number;
let merchantId: number;
let userId: number;
let token: string;
let spend: CampaignItem;

beforeAll(async () => {
  appId = (await appFixture()).app.app_id;
  merchantId = (await merchantFixture(appId)).merchant.merchant_id;
  ({
    token,
    user: { user_id: userId },
  } = await userFixture(appId));
  spend = await campaignFixture(merchantId, 'spend');
  await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('WELCOME') });
});

async function roundTrips(path: string, requestToken?: string, method: 'GET' | 'POST' = 'GET'): Promise<{ status: number; roundTrips: number; body: any }> {
  const response = await api.call(method, path, { token: requestToken });
  return { status: response.status, roundTrips: Number(response.headers.get('x-dynamodb-round-trips')), body: response.body };
}

describe('GET /v15/campaigns/:id/:representation_type round trips', () => {
  it("is the token check, the campaign, then one BatchGetItem (app + the user's items): 3", async () => {
    const result = await roundTrips(`/v15/campaigns/${spend.campaign_id}/spend_based_loyalty_v1`, token);
    expect(result.status).toBe(200);
    expect(result.body.campaign.progress_amount).toBe(0);
    expect(result.roundTrips).toBe(3);
  });

  it('stays 3 when the unlock and the opt-in marker are needed too', async () => {
    const custom = await campaignFixture(merchantId, 'custom_progress', { locked: true, requires_opt_in: true, cohort_code: uniqueCode('CUSTOM') });
    await unlockCampaign(merchantId, { target_campaign_id: custom.campaign_id, user_id: userId });
    const result = await roundTrips(`/v15/campaigns/${custom.campaign_id}/custom_progress_based_v1`, token);
    expect(result.status).toBe(200);
    expect(result.body.campaign.opted_in).toBe(false);
    expect(result.roundTrips).toBe(3);
  });
});

describe('GET /v15/merchants/:merchant_id/rewards round trips', () => {
  it('with a token is the token check plus two parallel Queries (merchant catalog, user loyalty): 3', async () => {
    const claimed = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('HELD') });
    expect((await api.call('POST', `/v15/codes/${claimed.cohort_code}/claims`, { token })).status).toBe(200);
    const result = await roundTrips(`/v15/merchants/${merchantId}/rewards`, token);
    expect(result.status).toBe(200);
    expect(result.body.some((entry: { reward: { id: string } }) => entry.reward.id.startsWith('claim-'))).toBe(true);
    expect(result.roundTrips).toBe(3);
  });

  it('without a token is one Query on the merchant catalog: 1', async () => {
    const result = await roundTrips(`/v15/merchants/${merchantId}/rewards`);
    expect(result.status).toBe(200);
    expect(result.body.length).toBeGreaterThan(0);
    expect(result.roundTrips).toBe(1);
  });

  it('reads the locations too only when a held reward has usable hours: 4', async () => {
    const other = await merchantFixture(appId);
    const timed = await campaignFixture(other.merchant.merchant_id, 'value', {
      cohort_code: uniqueCode('TIMED'),
      usable_hours: { start: '00:00', end: '23:59' },
    });
    expect((await api.call('POST', `/v15/codes/${timed.cohort_code}/claims`, { token })).status).toBe(200);
    const result = await roundTrips(`/v15/merchants/${other.merchant.merchant_id}/rewards`, token);
    expect(result.status).toBe(200);
    expect(result.roundTrips).toBe(4);
  });

  it('falls back to the merchant item for a merchant not listed in its catalog partition (created before the entry existed)', async () => {
    const old = await merchantFixture(appId);
    await db().send(new UpdateCommand({ TableName: table(), Key: keys.merchant(old.merchant.merchant_id), UpdateExpression: 'REMOVE gsi1pk, gsi1sk' }));
    const result = await roundTrips(`/v15/merchants/${old.merchant.merchant_id}/rewards`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual([]);
    expect(result.roundTrips).toBe(2);
  });

  it('answers 404 for an unknown merchant', async () => {
    const result = await roundTrips(`/v15/merchants/999999999/rewards`);
    expect(result.status).toBe(404);
  });
});

describe('app surface (A1-A4) round trips', () => {
  let locationId: number;
  beforeAll(async () => {
    const { locationFixture } = await import('../support/locations.ts');
    locationId = (await locationFixture(merchantId)).location_id;
  });

  it('merchant loyalty is the token check plus three parallel reads (catalog Query, user loyalty Query, both balances in one BatchGetItem): 4', async () => {
    const result = await roundTrips(`/v15/merchants/${merchantId}/loyalty`, token);
    expect(result.status).toBe(200);
    expect(result.body.loyalty.merchant_loyalty_enabled).toBe(true);
    expect(result.roundTrips).toBe(4);
  });

  it('rewards by location and their summary add the location (it names the merchant) to the rewards list: 4, and 2 without a token', async () => {
    for (const path of [`/v15/locations/${locationId}/rewards`, `/v15/locations/${locationId}/reward_summary`]) {
      const withToken = await roundTrips(path, token);
      expect(withToken.status).toBe(200);
      expect(withToken.roundTrips).toBe(4);
      const anonymous = await roundTrips(path);
      expect(anonymous.status).toBe(200);
      expect(anonymous.roundTrips).toBe(2);
    }
  });

  it('pausing on the merchant path reads the reward by its key and writes one transaction: 3', async () => {
    const held = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('PAUSE') });
    const claim = await api.call('POST', `/v15/codes/${held.cohort_code}/claims`, { token });
    const response = await api.call('PUT', `/v15/merchants/${merchantId}/rewards/claim-${claim.body.claim.id}`, { token, body: { reward: { paused: true } } });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('x-dynamodb-round-trips'))).toBe(3);
  });
});
