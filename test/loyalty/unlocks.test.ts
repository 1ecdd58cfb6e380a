import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { merchantFixture, useAppFixture, userFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';

const api = useTestApi();
const app = useAppFixture();
let merchantToken: string;
let locked: CampaignItem;

beforeAll(async () => {
  const merchant = await merchantFixture(app.appId);
  merchantToken = merchant.token;
  locked = await campaignFixture(merchant.merchant.merchant_id, 'visit', { locked: true });
});

const unlock = (body: Record<string, unknown>, token = merchantToken) =>
  api.call('POST', '/v15/campaign_unlockings', { token, body: { campaign_unlocking: body } });
const visible = async (token: string) => (await api.call('GET', `/v15/campaigns/${locked.campaign_id}/visit_based_loyalty_v1`, { token })).status;

describe('POST /v15/campaign_unlockings', () => {
  it('unlocks a locked campaign for a user by email: 204 with an empty body, and the campaign shows', async () => {
    const { email, token } = await userFixture(app.appId);
    expect(await visible(token)).toBe(404);
    const response = await unlock({ target_campaign_id: locked.campaign_id, email: email.toUpperCase() });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await visible(token)).toBe(200);
  });

  it('unlocks by user_id, honouring expires_at (ISO 8601 or the docs MM/DD/YYYY form)', async () => {
    const first = await userFixture(app.appId);
    expect((await unlock({ target_campaign_id: locked.campaign_id, user_id: first.user.user_id, expires_at: '2099-12-31T23:59:59-05:00' })).status).toBe(204);
    expect(await visible(first.token)).toBe(200);
    const second = await userFixture(app.appId);
    expect((await unlock({ target_campaign_id: locked.campaign_id, user_id: second.user.user_id, expires_at: '12/31/2099' })).status).toBe(204);
    expect(await visible(second.token)).toBe(200);
  });

  it('answers 422 campaign_unlocking/email "Email does not match any User"', async () => {
    const response = await unlock({ target_campaign_id: locked.campaign_id, email: 'nobody-here@example.com' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([
      { error: expect.objectContaining({ object: 'campaign_unlocking', property: 'email', message: 'Email does not match any User' }) },
    ]);
  });

  it('answers 422 campaign_unlocking/user_id "User ID does not match any User"', async () => {
    const response = await unlock({ target_campaign_id: locked.campaign_id, user_id: 987654321 });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([
      { error: expect.objectContaining({ object: 'campaign_unlocking', property: 'user_id', message: 'User ID does not match any User' }) },
    ]);
  });

  it('answers 422 when neither email nor user_id is given, or target_campaign_id is missing', async () => {
    const neither = await unlock({ target_campaign_id: locked.campaign_id });
    expect(neither.status).toBe(422);
    expect(neither.body[0].error).toMatchObject({ object: 'campaign_unlocking', property: 'email' });
    const noTarget = await unlock({ email: 'a@example.com' });
    expect(noTarget.status).toBe(422);
    expect(noTarget.body[0].error).toMatchObject({ object: 'campaign_unlocking', property: 'target_campaign_id' });
  });

  it('answers 422 for an expires_at in the past or not a date', async () => {
    const { user } = await userFixture(app.appId);
    for (const expiresAt of ['2001-01-01T00:00:00Z', 'next tuesday', '13/45/2099']) {
      const response = await unlock({ target_campaign_id: locked.campaign_id, user_id: user.user_id, expires_at: expiresAt });
      expect(response.status, expiresAt).toBe(422);
      expect(response.body[0].error).toMatchObject({ object: 'campaign_unlocking', property: 'expires_at' });
    }
  });

  it("answers 401 when the campaign is not the merchant's (or does not exist)", async () => {
    const other = await merchantFixture(app.appId);
    const { email } = await userFixture(app.appId);
    expect((await unlock({ target_campaign_id: locked.campaign_id, email }, other.token)).status).toBe(401);
    expect((await unlock({ target_campaign_id: 99999999, email })).status).toBe(401);
  });

  it('needs a merchant token with give_merchant_funded_credit (401)', async () => {
    const { email, token: userToken } = await userFixture(app.appId);
    const limited = await merchantFixture(app.appId, { permissions: ['manage_merchant_orders'] });
    expect((await unlock({ target_campaign_id: locked.campaign_id, email }, limited.token)).status).toBe(401);
    expect((await unlock({ target_campaign_id: locked.campaign_id, email }, userToken)).status).toBe(401);
    expect(
      (await api.call('POST', '/v15/campaign_unlockings', { body: { campaign_unlocking: { target_campaign_id: locked.campaign_id, email } } })).status,
    ).toBe(401);
  });
});
