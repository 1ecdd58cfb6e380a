import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { campaignFixture, legacyFixture, uniqueCode } from '../support/loyalty.ts';
import { creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';

const api = useTestApi();
let appId: number;
let merchantId: number;

beforeAll(async () => {
  const { app } = await appFixture();
  appId = app.app_id;
  merchantId = (await merchantFixture(appId)).merchant.merchant_id;
});

const claim = (code: string, token: string) => api.call('POST', `/v15/codes/${encodeURIComponent(code)}/claims`, { token });
const CANNOT_CLAIM = [{ error: { object: 'claim', property: 'base', message: 'Sorry, you cannot claim this promotion at this time.' } }];

describe('POST /v15/codes/:cohort_code/claims', () => {
  it('claims a value campaign and grants its merchant-funded credit', async () => {
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('WELCOME') });
    const { user, token } = await userFixture(appId);
    const response = await claim(campaign.cohort_code!.toLowerCase(), token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      claim: { id: expect.any(Number), campaign_id: campaign.campaign_id, code: campaign.cohort_code, value_amount: 500, value_remaining_amount: 500 },
    });
    expect((await getBalance(creditAccountKey(user.user_id, merchantId))).balance).toBe(500);
    const rewards = await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token });
    expect(rewards.body).toContainEqual({
      reward: expect.objectContaining({ id: `claim-${response.body.claim.id}`, value_amount: 500, value_remaining_amount: 500, usable: true }),
    });
  });

  it('answers 404 claim/base "Not a valid code" for an unknown code', async () => {
    const { token } = await userFixture(appId);
    const response = await claim('NO-SUCH-CODE', token);
    expect(response.status).toBe(404);
    expect(response.body).toEqual([{ error: { object: 'claim', property: 'base', message: 'Not a valid code' } }]);
  });

  it('answers 404 "Not a valid code" when the app of the token does not serve the merchant', async () => {
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode() });
    const { app } = await appFixture({ global: false, merchantIds: [] });
    const { token } = await userFixture(app.app_id);
    expect((await claim(campaign.cohort_code!, token)).status).toBe(404);
  });

  it('answers 422 when the user already claimed the code', async () => {
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode() });
    const { token } = await userFixture(appId);
    expect((await claim(campaign.cohort_code!, token)).status).toBe(200);
    const again = await claim(campaign.cohort_code!, token);
    expect(again.status).toBe(422);
    expect(again.body).toEqual(CANNOT_CLAIM);
  });

  it('answers 422 when the campaign is closed or not open yet', async () => {
    const closed = await campaignFixture(merchantId, 'value', {
      cohort_code: uniqueCode(),
      opens_at: '2020-01-01T00:00:00Z',
      closes_at: '2021-01-01T00:00:00Z',
    });
    const future = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode(), opens_at: '2099-01-01T00:00:00Z' });
    const { token } = await userFixture(appId);
    for (const campaign of [closed, future]) {
      const response = await claim(campaign.cohort_code!, token);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(CANNOT_CLAIM);
    }
  });

  it('answers 422 when the campaign is exhausted', async () => {
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode(), max_claims: 1 });
    expect((await claim(campaign.cohort_code!, (await userFixture(appId)).token)).status).toBe(200);
    const response = await claim(campaign.cohort_code!, (await userFixture(appId)).token);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(CANNOT_CLAIM);
  });

  it('answers 422 for a locked campaign that is not unlocked for the user', async () => {
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode(), locked: true });
    const response = await claim(campaign.cohort_code!, (await userFixture(appId)).token);
    expect(response.status).toBe(422);
  });

  it('makes exactly one claim out of concurrent claims by one user, and credits once', async () => {
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('RACE') });
    const { user, token } = await userFixture(appId);
    const responses = await Promise.all(Array.from({ length: 6 }, () => claim(campaign.cohort_code!, token)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 422)).toHaveLength(5);
    expect((await getBalance(creditAccountKey(user.user_id, merchantId))).balance).toBe(500);
  });

  it('never over-claims a limited campaign under concurrent claims by different users', async () => {
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('LIMIT'), max_claims: 2 });
    const tokens = await Promise.all(Array.from({ length: 5 }, async () => (await userFixture(appId)).token));
    const responses = await Promise.all(tokens.map((token) => claim(campaign.cohort_code!, token)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(2);
  });

  it('needs a user token with manage_user_campaigns (401)', async () => {
    const campaign = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode() });
    expect((await api.call('POST', `/v15/codes/${campaign.cohort_code}/claims`)).status).toBe(401);
    const limited = await userFixture(appId, { permissions: ['read_user_basic_info'] });
    expect((await claim(campaign.cohort_code!, limited.token)).status).toBe(401);
  });
});

describe('POST /v15/loyalties/legacy/:campaign_id/claims', () => {
  let spend: CampaignItem;
  let legacy: CampaignItem;
  let legacyAppId: number;

  beforeAll(async () => {
    const { app } = await appFixture();
    legacyAppId = app.app_id;
    spend = await campaignFixture(merchantId, 'spend');
    legacy = await legacyFixture(merchantId, legacyAppId, spend.campaign_id, [
      { legacy_id: 'CARD-1', value_amount: 500, progress_amount: 1200 },
      { legacy_id: 'CARD-2', value_amount: 300 },
      { legacy_id: 'CARD-3', value_amount: 0, progress_amount: 100 },
      { legacy_id: '12323', value_amount: 1000 },
    ]);
  });

  const claimLegacy = (token: string, legacyId: unknown, pathId: number | string = 1) =>
    api.call('POST', `/v15/loyalties/legacy/${pathId}/claims`, { token, body: { legacy_loyalty: { legacy_id: legacyId } } });

  it('migrates a card into the app legacy campaign, whatever the path id, with credit and progress adjustments', async () => {
    const { user, token } = await userFixture(legacyAppId);
    const response = await claimLegacy(token, 'CARD-1', 987654);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      claim: {
        id: expect.any(Number),
        campaign_id: legacy.campaign_id,
        code: legacy.cohort_code,
        value_amount: 500,
        value_remaining_amount: 500,
        progress_adjustments: [{ adjustment_amount: 1200 }],
      },
    });
    expect((await getBalance(creditAccountKey(user.user_id, merchantId))).balance).toBe(500);
    const progress = await api.call('GET', `/v15/campaigns/${spend.campaign_id}/spend_based_loyalty_v1`, { token });
    expect(progress.body.campaign.progress_amount).toBe(1200);
  });

  it('accepts an integer legacy_id (old docs) and answers an empty progress_adjustments list without progress', async () => {
    const { token } = await userFixture(legacyAppId);
    const response = await claimLegacy(token, 12323);
    expect(response.status).toBe(200);
    expect(response.body.claim.value_amount).toBe(1000);
    expect(response.body.claim.progress_adjustments).toEqual([]);
  });

  it('answers 404 claim/base "Loyalty information not found in records" for an unknown card', async () => {
    const { token } = await userFixture(legacyAppId);
    const response = await claimLegacy(token, 'NOPE');
    expect(response.status).toBe(404);
    expect(response.body).toEqual([{ error: { object: 'claim', property: 'base', message: 'Loyalty information not found in records' } }]);
  });

  it('answers 404 when the app has no legacy campaign', async () => {
    const { token } = await userFixture(appId);
    const response = await claimLegacy(token, 'CARD-2');
    expect(response.status).toBe(404);
    expect(response.body[0].error.message).toBe('Loyalty information not found in records');
  });

  it('answers 422 claim/base "Value for this card or email has already been migrated" for a migrated card or a second card', async () => {
    const first = await userFixture(legacyAppId);
    expect((await claimLegacy(first.token, 'CARD-2')).status).toBe(200);
    const sameCard = await claimLegacy((await userFixture(legacyAppId)).token, 'CARD-2');
    expect(sameCard.status).toBe(422);
    expect(sameCard.body).toEqual([{ error: { object: 'claim', property: 'base', message: 'Value for this card or email has already been migrated' } }]);
    const secondCard = await claimLegacy(first.token, 'CARD-3');
    expect(secondCard.status).toBe(422);
    expect(secondCard.body[0].error.message).toBe('Value for this card or email has already been migrated');
  });

  it('answers 422 when legacy_id is missing', async () => {
    const { token } = await userFixture(legacyAppId);
    const response = await api.call('POST', '/v15/loyalties/legacy/1/claims', { token, body: { legacy_loyalty: {} } });
    expect(response.status).toBe(422);
    expect(response.body[0].error).toMatchObject({ object: 'legacy_loyalty', property: 'legacy_id' });
  });
});
