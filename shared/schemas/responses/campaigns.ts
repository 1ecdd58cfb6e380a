/** What the management API's campaign operations answer (the requests: shared/schemas/campaigns.ts). */
import * as z from '#shared/schemas/zod.ts';
import { MANAGED_CAMPAIGN_KINDS } from '#shared/schemas/campaigns.ts';
import { cents, integerId, timestamp } from './common.ts';
import { resource } from './registry.ts';

const nullableTimestamp = z.nullable(timestamp);
const nullableCount = z.nullable(z.number().check(z.int()));

export const merchantCampaignResponse = resource(
  'MerchantCampaign',
  'campaign',
  {
    id: integerId,
    merchant_id: integerId,
    // `legacy` too: the operators' campaigns of the merchant are listed with the others.
    kind: z.enum([...MANAGED_CAMPAIGN_KINDS, 'legacy']),
    state: z.enum(['scheduled', 'open', 'closed']).check(z.describe('`scheduled` before `opens_at`, `closed` from `closes_at` on, `open` between')),
    title: z.string(),
    description: z.string(),
    opens_at: timestamp,
    closes_at: nullableTimestamp,
    requires_opt_in: z.boolean(),
    locked: z.boolean(),
    currency: z.string(),
    point_label_singular: z.nullable(z.string()),
    point_label_plural: z.nullable(z.string()),
    cohort_code: z.nullable(z.string()),
    tags: z.array(z.string()),
    required_spend_amount: z.nullable(cents),
    required_item_count: nullableCount,
    required_visit_count: nullableCount,
    qualifying_order_spend_amount: z.nullable(cents),
    earn_amount: cents,
    item_rules: z.array(z.object({ field: z.enum(['sku', 'category', 'name']), value: z.string() })),
    required_item_singular: z.string(),
    required_item_plural: z.string(),
    reward_title: z.string(),
    reward_article: z.string(),
    progress_period_days: nullableCount,
    progress_type: z.nullable(z.enum(['item', 'spend'])),
    goals: z.array(z.object({ id: integerId, title: z.string(), description: z.string(), progress_required: z.number().check(z.int()), earn_amount: cents })),
    value_amount: cents,
    max_claims: nullableCount,
    claims_count: z.number().check(z.int()),
    transferable: z.boolean(),
    transfer_required: z.boolean(),
    usable_hours: z.nullable(z.object({ start: z.string(), end: z.string() })),
    app_id: z.nullable(integerId).check(z.describe("A legacy campaign's app (the operators')")),
    progress_campaign_id: z.nullable(integerId),
    created_at: timestamp,
    updated_at: timestamp,
  },
  'A merchant\'s campaign as its owners and managers see it (docs/merchant-api.md, "Campaigns")',
);

export const merchantCampaignList = z.array(merchantCampaignResponse);
