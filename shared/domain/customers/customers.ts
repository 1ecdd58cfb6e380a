/**
 * A merchant's customers as its staff see them (docs/merchant-api.md, "Customers"): found by exact email or phone, and each
 * one's standing at THIS merchant only: credit and gift card value (the balances a POS is offered, availableCredit),
 * loyalty progress and held rewards (the user's loyalty partition for this merchant), orders and volume. Every read
 * is keyed by (user, this merchant): nothing of another merchant is ever read, so none can be shown.
 *
 * A "customer" is a user with something at the merchant: a credit or gift card balance, an expiring grant, or any
 * loyalty item (progress, unlock, claim, reward, order totals). Anyone else answers 404 exactly as an unknown
 * email does, after the same reads, so the lookup never says which emails are registered on the platform.
 */
import { keys } from '#shared/db/keys.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { errorDetail, notFound, unprocessable } from '#shared/errors.ts';
import type { StaffActor } from '#shared/auth/roles.ts';
import type { StaffWrite } from '#shared/domain/audit/audit-log.ts';
import { loadMerchantCatalog, type CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import { unlockCampaign } from '#shared/domain/loyalty/unlocks.ts';
import { currentProgress, loadUserLoyalty, type UserLoyaltyState } from '#shared/domain/loyalty/user-state.ts';
import { availableCreditFrom, availableCreditKeys } from '#shared/domain/money/credit.ts';
import { grantMerchantFundedCredit, type CreditGrantRecord } from '#shared/domain/pos/credit-grants.ts';
import { normalisedPhone, usersWithPhone } from '#shared/domain/identity/phones.ts';
import { consumeOrRefuse, type WindowLimit } from '#shared/domain/rate-limits.ts';
import type { CustomerCreditGrant, CustomerUnlock } from '#shared/schemas/customers.ts';
import type { customerResponse, customerUnlockResponse } from '#shared/schemas/responses/customers.ts';
import type * as z from '#shared/schemas/zod.ts';
import { isoSeconds } from '#shared/time.ts';

export const CUSTOMER_NOT_FOUND = () => notFound(errorDetail('customer', 'id', 'This merchant has no such customer.', 'not_found'));

/**
 * Lookups per staff member and per merchant (docs/security.md "Customer lookups"): a console finds a customer at the
 * counter a few times a minute; a script trying a list of emails meets the window long before it learns much.
 */
export const CUSTOMER_LOOKUPS_PER_STAFF: WindowLimit = { name: 'customer-lookup-staff', limit: 30, windowSeconds: 15 * 60 };
export const CUSTOMER_LOOKUPS_PER_MERCHANT: WindowLimit = { name: 'customer-lookup-merchant', limit: 300, windowSeconds: 3600 };

/** The user id no one has (ids start at 1): an unknown email reads this user's (absent) items, as a known one reads its own. */
const NOBODY = 0;

/** The customer as the lookup answers it; each campaign one of the merchant's the customer has a standing in (progress, an unlocking, a claim). */
export type CustomerView = z.output<typeof customerResponse>['customer'];
type CustomerCampaign = CustomerView['campaigns'][number];

/** What an unlocking answers: the campaign, the customer and until when (null: until the campaign ends). */
export type CustomerUnlockResult = z.output<typeof customerUnlockResponse>['campaign_unlocking'];

/** What the campaign's goal counts (cents, items or visits); null for a kind without one goal. */
function goalOf(campaign: CampaignItem): number | null {
  return campaign.required_spend_amount ?? campaign.required_item_count ?? campaign.required_visit_count ?? null;
}

/** Whether the user has anything at the merchant: what makes them its customer. */
function hasStanding(balances: readonly (StoredItem | undefined)[], state: UserLoyaltyState): boolean {
  return (
    balances.some((item) => item !== undefined) ||
    state.progress.size > 0 ||
    state.unlocks.size > 0 ||
    state.claimed.size > 0 ||
    state.rewards.length > 0 ||
    state.stats !== undefined
  );
}

function campaignsOf(catalog: readonly CampaignItem[], state: UserLoyaltyState, at: Date): CustomerCampaign[] {
  return catalog
    .filter((campaign) => state.progress.has(campaign.campaign_id) || state.unlocks.has(campaign.campaign_id) || state.claimed.has(campaign.campaign_id))
    .sort((a, b) => a.campaign_id - b.campaign_id)
    .map((campaign) => {
      const unlock = state.unlocks.get(campaign.campaign_id);
      return {
        campaign_id: campaign.campaign_id,
        title: campaign.title,
        kind: campaign.kind,
        progress: currentProgress(state.progress.get(campaign.campaign_id), at).amount,
        goal: goalOf(campaign),
        unlocked: unlock !== undefined && (unlock.expires_at === null || Date.parse(unlock.expires_at) > at.getTime()),
        unlocked_until: unlock?.expires_at ?? null,
        claimed: state.claimed.has(campaign.campaign_id),
      };
    });
}

/**
 * The customer's standing at the merchant, or 404 when the user has none there (or is NOBODY). Three reads in
 * parallel, each keyed by this merchant: the balances (one BatchGetItem), the user's loyalty partition for the
 * merchant (one Query) and the merchant's catalog (one Query). Credit is as a POS is offered it: expired grants
 * leave first (availableCreditFrom).
 */
export async function customerAtMerchant(merchantId: number, userId: number, at = new Date()): Promise<CustomerView> {
  const [balances, state, catalog] = await Promise.all([
    readItems(availableCreditKeys(userId, merchantId), { consistent: true }),
    loadUserLoyalty(userId, merchantId, true),
    loadMerchantCatalog(merchantId),
  ]);
  if (userId === NOBODY || !hasStanding(balances, state)) throw CUSTOMER_NOT_FOUND();
  const credit = await availableCreditFrom(userId, merchantId, balances);
  const heldRewards = state.rewards.filter((reward) => !reward.voided && reward.value_remaining_amount > 0);
  return {
    id: userId,
    merchant_id: merchantId,
    credit_amount: credit.merchantFunded,
    gift_card_amount: credit.giftCard,
    orders_count: Math.max(0, state.stats?.orders_count ?? 0),
    total_volume_amount: Math.max(0, state.stats?.total_volume_amount ?? 0),
    savings_amount: Math.max(0, state.stats?.savings_amount ?? 0),
    rewards_count: heldRewards.length,
    rewards_value_remaining_amount: heldRewards.reduce((sum, reward) => sum + reward.value_remaining_amount, 0),
    campaigns: campaignsOf(catalog.campaigns, state, at),
  };
}

/** What a lookup names: an exact email or a phone, exactly one (the body's schema refuses both and neither). */
export interface CustomerLookup {
  email?: string;
  phone?: string;
}

/**
 * The most users of one phone a lookup weighs. Beyond it the number is too widely shared (an office line, a
 * placeholder) to name anyone, and the lookup asks for the email as when several of the merchant's customers share it.
 */
export const MAX_USERS_PER_PHONE = 20;

const PHONE_SHARED = () => unprocessable('customer_lookup', 'phone', 'More than one customer has this phone; look the customer up by email.', 'ambiguous');

/**
 * Finds the merchant's customer by exact email (trimmed and lower-cased, as registration keys its login) or by phone
 * (normalised as the phone index keys it: shared/domain/identity/phones.ts). Every lookup is counted first, both kinds
 * in the same windows (429 with Retry-After past either); an unknown email or phone reads NOBODY's items so that it
 * costs what a registered non-customer's costs, and both answer the same 404.
 */
export async function findCustomer(actor: StaffActor, lookup: CustomerLookup): Promise<CustomerView> {
  const refusal = { object: 'customer_lookup', message: 'Too many customer lookups; try again later.' };
  await consumeOrRefuse(CUSTOMER_LOOKUPS_PER_STAFF, `${actor.merchantId}#${actor.staffId}`, refusal);
  await consumeOrRefuse(CUSTOMER_LOOKUPS_PER_MERCHANT, String(actor.merchantId), refusal);
  if (lookup.phone !== undefined) return findCustomerByPhone(actor.merchantId, lookup.phone);
  if (lookup.email === undefined) throw unprocessable('customer_lookup', 'base', 'Customer lookup must name exactly one of email and phone');
  const [login] = await readItems([keys.login(lookup.email)], { consistent: false });
  const userId = login?.subject === 'user' && typeof login.user_id === 'number' ? login.user_id : NOBODY;
  return customerAtMerchant(actor.merchantId, userId);
}

/**
 * The one customer of the merchant with this phone. One Query of the phone's index partition (none for a number that
 * does not normalise, which nobody's phone is indexed under), then as the email lookup: one user (or none: NOBODY)
 * is read as a customer or 404. Several users of the number: each one's standing here is read, and exactly one
 * customer among them is the answer, none the same 404; more than one is refused (422 `ambiguous`) rather than
 * answered by some rule, since a staff member who gets the wrong person's balance may spend or grant it; the refusal
 * names no one and says only what this merchant's own customers already show it (docs/security.md, "Customer lookup by phone").
 */
async function findCustomerByPhone(merchantId: number, typed: string): Promise<CustomerView> {
  const phone = normalisedPhone(typed);
  const userIds = phone === undefined ? [] : await usersWithPhone(phone, MAX_USERS_PER_PHONE + 1);
  if (userIds.length <= 1) return customerAtMerchant(merchantId, userIds[0] ?? NOBODY);
  if (userIds.length > MAX_USERS_PER_PHONE) throw PHONE_SHARED();
  const standing = await Promise.all(userIds.map((userId) => isCustomer(merchantId, userId)));
  const customers = userIds.filter((_, index) => standing[index]);
  if (customers.length > 1) throw PHONE_SHARED();
  return customerAtMerchant(merchantId, customers[0] ?? NOBODY);
}

/** Whether the user is a customer of the merchant (the view's reads but the catalog). */
async function isCustomer(merchantId: number, userId: number): Promise<boolean> {
  const [balances, state] = await Promise.all([
    readItems(availableCreditKeys(userId, merchantId), { consistent: true }),
    loadUserLoyalty(userId, merchantId, true),
  ]);
  return hasStanding(balances, state);
}

/** A customer of the merchant, or 404: the changes below act only on the merchant's own customers. */
async function requireCustomer(merchantId: number, userId: number): Promise<void> {
  if (!(await isCustomer(merchantId, userId))) throw CUSTOMER_NOT_FOUND();
}

/**
 * Grants the customer merchant-funded credit through the POS grant's own domain function (grantMerchantFundedCredit):
 * the same bounds, daily budget, balanced ledger entry and audit entry; the staff member's own owner or manager
 * token approves it (recorded as `approved_by_staff_id`); its Idempotency-Key answer is stored in its transaction.
 */
export async function grantCustomerCredit(input: StaffWrite<CreditGrantRecord> & { userId: number; grant: CustomerCreditGrant }): Promise<CreditGrantRecord> {
  await requireCustomer(input.actor.merchantId, input.userId);
  return grantMerchantFundedCredit({
    merchantId: input.actor.merchantId,
    userId: input.userId,
    grant: { ...input.grant, email: '', merchant_id: null, global: false, manager_confirmation: null },
    audit: input.context,
    storeResponse: input.storeResponse,
  });
}

/**
 * Unlocks one of the merchant's locked campaigns for the customer through the POS unlocking's own domain function
 * (unlockCampaign: its event, its rules on expiry), with the audit entry and the stored answer in its transaction.
 * Unlocking again replaces the unlocking (the natural key is the campaign and the customer).
 */
export async function unlockForCustomer(input: StaffWrite<CustomerUnlockResult> & { userId: number; unlock: CustomerUnlock }): Promise<CustomerUnlockResult> {
  await requireCustomer(input.actor.merchantId, input.userId);
  const at = new Date();
  const outcome = await unlockCampaign(
    input.actor.merchantId,
    { target_campaign_id: input.unlock.campaign_id, user_id: input.userId, expires_at: input.unlock.expires_at ?? null },
    at,
    {
      audit: input.context,
      storeResponse: (unlocking) => input.storeResponse({ ...unlocking, unlocked_at: isoSeconds(at) }),
    },
  );
  return { ...outcome, unlocked_at: isoSeconds(at) };
}

/** The answers, each under its root key (shared/schemas/responses/customers.ts). */
export const customerView = (customer: CustomerView) => ({ customer });
export const creditGrantView = (grant: CreditGrantRecord) => ({ credit_grant: grant });
export const unlockView = (unlocking: CustomerUnlockResult) => ({ campaign_unlocking: unlocking });
