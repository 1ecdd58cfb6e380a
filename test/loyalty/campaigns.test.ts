import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { LOYALTY_REPRESENTATION_OF_KIND, campaignFixture } from '../support/loyalty.ts';
import { REPRESENTATION_TYPES } from '#shared/domain/loyalty/representations.ts';
import type { CampaignItem, CampaignKind } from '#shared/domain/loyalty/campaigns.ts';
import { unlockCampaign } from '#shared/domain/loyalty/unlocks.ts';

const api = useTestApi();
let appId: number;
let merchantId: number;
let userToken: string;
const campaigns = {} as Record<Exclude<CampaignKind, 'legacy'>, CampaignItem>;

beforeAll(async () => {
  const { app } = await appFixture();
  appId = app.app_id;
  merchantId = (await merchantFixture(appId)).merchant.merchant_id;
  userToken = (await userFixture(appId)).token;
  for (const kind of ['spend', 'item', 'visit', 'item_gift_card', 'spend_gift_card', 'custom_progress', 'value'] as const) {
    campaigns[kind] = await campaignFixture(merchantId, kind);
  }
});

const show = (id: number | string, type: string, token = userToken) => api.call('GET', `/v15/campaigns/${id}/${type}`, { token });

describe('GET /v15/campaigns/:id/:representation_type', () => {
  it('shows basic_v1 for every kind of campaign', async () => {
    for (const campaign of Object.values(campaigns)) {
      const response = await show(campaign.campaign_id, 'basic_v1');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ campaign: { description: campaign.description, title: campaign.title } });
    }
  });

  it('shows spend_based_loyalty_v1 field for field with the user progress', async () => {
    const response = await show(campaigns.spend.campaign_id, 'spend_based_loyalty_v1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ campaign: { earn_amount: 500, progress_amount: 0, required_spend_amount: 5000 } });
  });

  it('shows item_based_loyalty_v1', async () => {
    const response = await show(campaigns.item.campaign_id, 'item_based_loyalty_v1');
    expect(response.body).toEqual({
      campaign: {
        progress_item_count: 0,
        required_item_count: 5,
        required_item_plural: 'coffees',
        required_item_singular: 'coffee',
        reward_article: 'a',
        reward_title: 'free coffee',
      },
    });
  });

  it('shows visit_based_loyalty_v1', async () => {
    const response = await show(campaigns.visit.campaign_id, 'visit_based_loyalty_v1');
    expect(response.body).toEqual({ campaign: { progress_visit_count: 0, required_visit_count: 3, earn_amount: 400, qualifying_order_spend_amount: 500 } });
  });

  it('shows item_based_gift_card_loyalty_v1 with no period before the first order', async () => {
    const response = await show(campaigns.item_gift_card.campaign_id, 'item_based_gift_card_loyalty_v1');
    expect(response.body).toEqual({
      campaign: {
        description: 'Buy 4 bagels a month for a $2 gift card',
        title: 'Bagel club',
        progress_item_count: 0,
        progress_period_starts_at: null,
        progress_period_resets_at: null,
        required_item_plural: 'bagels',
        required_item_singular: 'bagel',
        required_item_count: 4,
        reward_article: 'a',
        reward_title: '$2 gift card',
      },
    });
  });

  it('shows spend_based_gift_card_loyalty_v1', async () => {
    const response = await show(campaigns.spend_gift_card.campaign_id, 'spend_based_gift_card_loyalty_v1');
    expect(response.body).toEqual({
      campaign: {
        currency: 'USD',
        description: 'Spend $100 a month for a $10 gift card',
        title: 'Monthly spender',
        progress_amount: 0,
        progress_period_starts_at: null,
        progress_period_resets_at: null,
        earn_amount: 1000,
        required_spend_amount: 10000,
        reward_article: 'a',
        reward_title: '$10 gift card',
      },
    });
  });

  it('shows custom_progress_based_v1 with goals', async () => {
    const campaign = campaigns.custom_progress;
    const response = await show(campaign.campaign_id, 'custom_progress_based_v1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      campaign: {
        closes_at: null,
        currency: 'USD',
        current_progress: 0,
        description: 'Earn points toward goals',
        id: campaign.campaign_id,
        image: null,
        opens_at: campaign.opens_at,
        opted_in: null,
        point_label_singular: 'point',
        point_label_plural: 'points',
        progress_type: 'spend',
        qualifying_order_spend_amount: null,
        required_item_plural: 'items',
        required_item_singular: 'item',
        requires_opt_in: false,
        title: 'Points journey',
        goals: campaign.goals.map((goal) => ({
          goal: { accomplished: false, description: goal.description, id: goal.id, image: null, progress_required: goal.progress_required, title: goal.title },
        })),
      },
    });
    expect(response.body.campaign.opens_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
  });

  it('answers opted_in false until the user claims an opt-in campaign, then true', async () => {
    const campaign = await campaignFixture(merchantId, 'custom_progress', { requires_opt_in: true, cohort_code: `OPTIN-${Date.now()}` });
    const { token } = await userFixture(appId);
    expect((await show(campaign.campaign_id, 'custom_progress_based_v1', token)).body.campaign.opted_in).toBe(false);
    expect((await api.call('POST', `/v15/codes/${campaign.cohort_code}/claims`, { token })).status).toBe(200);
    expect((await show(campaign.campaign_id, 'custom_progress_based_v1', token)).body.campaign.opted_in).toBe(true);
  });

  it('answers 404 with an empty body for a representation that does not apply to the campaign kind', async () => {
    const applicable = LOYALTY_REPRESENTATION_OF_KIND;
    for (const [kind, campaign] of Object.entries(campaigns)) {
      for (const type of REPRESENTATION_TYPES) {
        if (type === 'basic_v1' || type === applicable[kind]) continue;
        const response = await show(campaign.campaign_id, type);
        expect(response.status, `${kind} as ${type}`).toBe(404);
        expect(response.text).toBe('');
      }
    }
  });

  it('never shows gift card based loyalty as custom_progress_based_v1', async () => {
    for (const campaign of [campaigns.item_gift_card, campaigns.spend_gift_card]) {
      expect((await show(campaign.campaign_id, 'custom_progress_based_v1')).status).toBe(404);
    }
  });

  it('answers 404 with an empty body for an unknown campaign, an unknown representation or a non-numeric id', async () => {
    for (const [id, type] of [
      [999999, 'basic_v1'],
      [campaigns.spend.campaign_id, 'fancy_v9'],
      ['abc', 'basic_v1'],
    ] as const) {
      const response = await show(id, type);
      expect(response.status).toBe(404);
      expect(response.text).toBe('');
    }
  });

  it('hides a locked campaign until the merchant unlocks it for the user, and again once the unlocking expired', async () => {
    const locked = await campaignFixture(merchantId, 'spend', { locked: true });
    const { user, token } = await userFixture(appId);
    expect((await show(locked.campaign_id, 'basic_v1', token)).status).toBe(404);
    await unlockCampaign(
      merchantId,
      { target_campaign_id: locked.campaign_id, user_id: user.user_id, expires_at: new Date(Date.now() - 86_400_000).toISOString() },
      new Date(Date.now() - 2 * 86_400_000),
    );
    expect((await show(locked.campaign_id, 'basic_v1', token)).status).toBe(404);
    await unlockCampaign(merchantId, { target_campaign_id: locked.campaign_id, user_id: user.user_id });
    expect((await show(locked.campaign_id, 'spend_based_loyalty_v1', token)).status).toBe(200);
  });

  it('answers 404 when the token app does not serve the campaign merchant', async () => {
    const { app } = await appFixture({ global: false, merchantIds: [] });
    const { token } = await userFixture(app.app_id);
    expect((await show(campaigns.spend.campaign_id, 'basic_v1', token)).status).toBe(404);
  });

  it('needs a user token with manage_user_campaigns (401)', async () => {
    expect((await api.call('GET', `/v15/campaigns/${campaigns.spend.campaign_id}/basic_v1`)).status).toBe(401);
    const limited = await userFixture(appId, { permissions: ['read_user_basic_info'] });
    expect((await show(campaigns.spend.campaign_id, 'basic_v1', limited.token)).status).toBe(401);
    const merchant = await merchantFixture(appId);
    expect((await show(campaigns.spend.campaign_id, 'basic_v1', merchant.token)).status).toBe(401);
  });
});
