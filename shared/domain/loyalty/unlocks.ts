import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { unauthorized, unprocessable } from '#shared/errors.ts';
import { getUser } from '#shared/domain/users.ts';
import { getCampaign } from '#shared/domain/loyalty/campaigns.ts';
import { isoSeconds } from '#shared/time.ts';

export interface UnlockRequest {
  target_campaign_id: number;
  email?: string;
  user_id?: number;
  /** ISO 8601 with offset, or the docs' `MM/DD/YYYY` (the unlocking lasts through that day, UTC). */
  expires_at?: string | null;
}

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** Parses expires_at; undefined for a value that is not a date. */
export function parseUnlockExpiry(value: string): Date | undefined {
  const usDate = US_DATE.exec(value.trim());
  if (usDate) {
    const [month, day, year] = [Number(usDate[1]), Number(usDate[2]), Number(usDate[3])];
    const day0 = new Date(Date.UTC(year, month - 1, day));
    if (day0.getUTCMonth() !== month - 1 || day0.getUTCDate() !== day) return undefined;
    return new Date(Date.UTC(year, month - 1, day + 1));
  }
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(value.trim())) return undefined;
  const parsed = new Date(value.trim());
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/**
 * A merchant unlocks one of its locked campaigns for a user (by email or id), optionally until
 * expires_at. Unlocking again replaces the previous unlocking (e.g. to extend it).
 */
export async function unlockCampaign(merchantId: number, request: UnlockRequest, at = new Date()): Promise<void> {
  const campaign = await getCampaign(request.target_campaign_id);
  // A campaign that is not this merchant's, or does not exist, is not the merchant's to unlock: same answer.
  if (!campaign || campaign.merchant_id !== merchantId) {
    throw unauthorized('Merchant token not associated with the campaign', 'campaign_unlocking', 'target_campaign_id');
  }
  let expiresAt: string | null = null;
  if (request.expires_at !== undefined && request.expires_at !== null && request.expires_at !== '') {
    const parsed = parseUnlockExpiry(request.expires_at);
    if (!parsed) throw unprocessable('campaign_unlocking', 'expires_at', 'Expires at is not a valid date', 'invalid');
    if (parsed.getTime() <= at.getTime()) throw unprocessable('campaign_unlocking', 'expires_at', 'Expires at must be in the future', 'invalid');
    expiresAt = isoSeconds(parsed);
  }
  const userId = await resolveUser(request);
  const now = isoSeconds(at);
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...keys.userUnlock(userId, campaign.merchant_id, campaign.campaign_id),
        entity: 'CampaignUnlock',
        user_id: userId,
        merchant_id: campaign.merchant_id,
        campaign_id: campaign.campaign_id,
        expires_at: expiresAt,
        unlocked_by_merchant_id: merchantId,
        created_at: now,
        updated_at: now,
      },
    }),
  );
}

async function resolveUser(request: UnlockRequest): Promise<number> {
  let byId: number | undefined;
  let byEmail: number | undefined;
  if (request.user_id !== undefined) {
    const user = await getUser(request.user_id);
    if (!user) throw unprocessable('campaign_unlocking', 'user_id', 'User ID does not match any User', 'not_found');
    byId = user.user_id;
  }
  if (request.email !== undefined && request.email.trim() !== '') {
    const login = await db().send(new GetCommand({ TableName: table(), Key: keys.login(request.email) }));
    if (login.Item?.subject !== 'user') throw unprocessable('campaign_unlocking', 'email', 'Email does not match any User', 'not_found');
    byEmail = login.Item.user_id as number;
  }
  if (byId !== undefined && byEmail !== undefined && byId !== byEmail) {
    throw unprocessable('campaign_unlocking', 'base', 'Email and user ID belong to different users', 'mismatch');
  }
  const userId = byId ?? byEmail;
  if (userId === undefined) throw unprocessable('campaign_unlocking', 'email', "Email can't be blank (give email or user_id)", 'missing');
  return userId;
}
