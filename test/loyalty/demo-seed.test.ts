import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { seedLoyalty } from '../../scripts/demo/loyalty.ts';
import type { DemoContext } from '../../scripts/demo/context.ts';
import { LOYALTY_REPRESENTATION_OF_KIND } from '../support/loyalty.ts';
import { demoMerchant } from '../support/demo.ts';

const api = useTestApi();

describe('seedLoyalty (demo data)', () => {
  it('returns working ids: each campaign in its representation, the cohort code, the legacy card, the locked campaign', async () => {
    const { app, merchant, owner } = await demoMerchant(api.baseUrl);
    const context = { app: { id: app.app_id }, merchant: { id: merchant.merchant_id }, owner, progress: () => undefined } as unknown as DemoContext;
    const demo = (await seedLoyalty(context)) as {
      campaigns: Record<string, number>;
      item_campaign_sku: string;
      cohort_code: string;
      legacy: { campaign_id: number; legacy_id: string };
      locked_campaign_id: number;
    };
    const { token } = await userFixture(app.app_id);
    const representation = LOYALTY_REPRESENTATION_OF_KIND;
    expect(Object.keys(demo.campaigns).sort()).toEqual(Object.keys(representation).sort());
    for (const [kind, id] of Object.entries(demo.campaigns)) {
      expect((await api.call('GET', `/v15/campaigns/${id}/${representation[kind]}`, { token })).status, kind).toBe(200);
    }
    expect(demo.item_campaign_sku).toBe('COFFEE-12');
    expect((await api.call('POST', `/v15/codes/${demo.cohort_code}/claims`, { token })).status).toBe(200);
    const legacy = await api.call('POST', `/v15/loyalties/legacy/${demo.legacy.campaign_id}/claims`, {
      token,
      body: { legacy_loyalty: { legacy_id: demo.legacy.legacy_id } },
    });
    expect(legacy.status).toBe(200);
    expect((await api.call('GET', `/v15/campaigns/${demo.locked_campaign_id}/basic_v1`, { token })).status).toBe(404);
  });
});
