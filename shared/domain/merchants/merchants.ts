import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure } from '#shared/db/client.ts';
import { itemExists } from '#shared/db/conditions.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { transactWrite } from '#shared/db/transactions.ts';
import { Login } from '#shared/domain/identity/entities.ts';
import type { ChargeLimitSettings } from '#shared/domain/identity/apps.ts';
import { hashPassword } from '#shared/auth/secrets.ts';
import { isoSeconds } from '#shared/time.ts';
import { DEFAULT_TIP_PREFERENCE, type TipPreference } from '#shared/schemas/vocabularies.ts';

/** A merchant's attributes (what createMerchant answers; a stored one is a Merchant item, its keys besides). */
export interface MerchantItem {
  merchant_id: number;
  name: string;
  description_html: string;
  /** Login name for access token issuance (merchant staff log in with it). */
  username: string;
  /** When set, refunds must carry it as refund.manager_confirmation. */
  manager_confirmation: string | null;
  /** Whether the merchant wants tips asked for (`unwanted`, `expected`, `no preference`); copied onto its locations. */
  tip_preference: TipPreference;
  created_at: string;
  updated_at: string;
}

/** A merchant; listed in its own catalog partition (gsi1, keys.merchantCatalogEntry) beside its campaigns. */
/** What the operators set on a merchant (the admin CLI; money/merchant-budget.ts and money/charge-limits.ts read them). */
interface MerchantMoneySettings {
  daily_credit_budget_amount?: number;
  charge_limits?: ChargeLimitSettings;
}

/** Set by the first code a staff member of the merchant sets (audit/manager-codes.ts): from then on, refunds need a manager code. */
interface MerchantStaffCodes {
  staff_manager_codes?: boolean;
}

export const Merchant = defineEntity<MerchantItem & MerchantMoneySettings & MerchantStaffCodes & { gsi1pk: string; gsi1sk: string }>()({
  entity: 'Merchant',
  key: keys.merchant,
});

/** Thrown by createMerchant when another merchant or a user already logs in with that username. */
export class UsernameTakenError extends Error {
  override readonly name = 'UsernameTakenError';
  constructor(readonly username: string) {
    super(`The username ${username} is already taken`);
  }
}

export async function createMerchant(input: {
  name: string;
  username: string;
  password: string;
  descriptionHtml?: string;
  managerConfirmation?: string | null;
  tipPreference?: TipPreference;
}): Promise<MerchantItem> {
  // The login is a person: their id comes from the users' id space, so it never meets a customer's
  // (the C# POS SDK reads the login's user_id as a non-nullable int).
  const [merchantId, loginUserId, passwordHash] = await Promise.all([nextId('merchant'), nextId('user'), hashPassword(input.password)]);
  const now = isoSeconds();
  const merchant: MerchantItem = {
    merchant_id: merchantId,
    name: input.name,
    description_html: input.descriptionHtml ?? `<p>${input.name}</p>`,
    username: input.username.trim().toLowerCase(),
    manager_confirmation: input.managerConfirmation ?? null,
    tip_preference: input.tipPreference ?? DEFAULT_TIP_PREFERENCE,
    created_at: now,
    updated_at: now,
  };
  const outcome = await transactWrite(() => [
    Login.at(merchant.username).putNew({ subject: 'merchant', merchant_id: merchantId, user_id: loginUserId, password_hash: passwordHash, created_at: now }),
    Merchant.at(merchantId).putNew({ ...keys.merchantCatalogEntry(merchantId), ...merchant }),
  ]);
  if (!outcome.committed) {
    if (outcome.reasons[0] === 'ConditionalCheckFailed') throw new UsernameTakenError(merchant.username);
    throw new Error(`merchant creation cancelled: ${outcome.reasons.join(',')}`);
  }
  return merchant;
}

export async function getMerchant(merchantId: number): Promise<MerchantItem | undefined> {
  return Merchant.at(merchantId).get({ consistent: false });
}

/**
 * Stores a merchant's tip preference (its locations carry a copy: setMerchantTipPreference in locations.ts
 * writes both). Undefined for an unknown merchant.
 */
export async function storeMerchantTipPreference(merchantId: number, preference: TipPreference): Promise<MerchantItem | undefined> {
  try {
    const result = await db().send(
      new UpdateCommand({
        ...Merchant.at(merchantId).update({ set: { tip_preference: preference, updated_at: isoSeconds() } }, itemExists).Update,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Merchant.from(result.Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
