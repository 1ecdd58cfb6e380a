import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { putNew, transactWrite } from '#shared/db/transactions.ts';
import { hashPassword } from '#shared/auth/secrets.ts';
import { isoSeconds } from '#shared/time.ts';
import { DEFAULT_TIP_PREFERENCE, type TipPreference } from '#shared/schemas/vocabularies.ts';

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
    putNew({
      ...keys.login(merchant.username),
      entity: 'Login',
      subject: 'merchant',
      merchant_id: merchantId,
      user_id: loginUserId,
      password_hash: passwordHash,
      created_at: now,
    }),
    putNew({ ...keys.merchant(merchantId), ...keys.merchantCatalogEntry(merchantId), entity: 'Merchant', ...merchant }),
  ]);
  if (!outcome.committed) {
    if (outcome.reasons[0] === 'ConditionalCheckFailed') throw new UsernameTakenError(merchant.username);
    throw new Error(`merchant creation cancelled: ${outcome.reasons.join(',')}`);
  }
  return merchant;
}

export async function getMerchant(merchantId: number): Promise<MerchantItem | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.merchant(merchantId) }));
  return result.Item as MerchantItem | undefined;
}

/**
 * Stores a merchant's tip preference (its locations carry a copy: setMerchantTipPreference in locations.ts
 * writes both). Undefined for an unknown merchant.
 */
export async function storeMerchantTipPreference(merchantId: number, preference: TipPreference): Promise<MerchantItem | undefined> {
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.merchant(merchantId),
        UpdateExpression: 'SET tip_preference = :preference, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':preference': preference, ':now': isoSeconds() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes as MerchantItem;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
