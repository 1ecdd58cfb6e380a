/** What the management API's customer routes answer (the requests: shared/schemas/customers.ts). */
import * as z from '#shared/schemas/zod.ts';
import { MANAGED_CAMPAIGN_KINDS } from '#shared/schemas/campaigns.ts';
import { cents, integerId, timestamp } from './common.ts';
import { resource } from './registry.ts';

const count = z.number().check(z.int());

export const customerResponse = resource('MerchantCustomer', 'customer', {
  id: integerId.check(z.describe("The customer's user id")),
  merchant_id: integerId,
  credit_amount: cents.check(z.describe('Merchant-funded credit usable here now (what the next proposed order offers), expired grants left out')),
  gift_card_amount: cents.check(z.describe('Gift card value usable here')),
  orders_count: count,
  total_volume_amount: cents,
  savings_amount: cents,
  rewards_count: count.check(z.describe('Rewards held here with value left')),
  rewards_value_remaining_amount: cents,
  campaigns: z.array(
    z.object({
      campaign_id: integerId,
      title: z.string(),
      kind: z.enum([...MANAGED_CAMPAIGN_KINDS, 'legacy']),
      progress: count.check(z.describe('Cents, items or visits by the kind, as of now')),
      goal: z.nullable(count),
      unlocked: z.boolean(),
      unlocked_until: z.nullable(timestamp),
      claimed: z.boolean(),
    }),
  ),
});

export const customerCreditGrantResponse = resource('CustomerCreditGrant', 'credit_grant', {
  id: z.string().check(z.describe("The grant's uuid")),
  user_id: integerId,
  value_amount: cents,
  expires_at: timestamp,
  approved_by_staff_id: z.nullable(integerId),
});

export const customerUnlockResponse = resource('CustomerCampaignUnlocking', 'campaign_unlocking', {
  campaign_id: integerId,
  user_id: integerId,
  expires_at: z.nullable(timestamp),
  unlocked_at: timestamp,
});
