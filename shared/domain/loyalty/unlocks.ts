import { table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { auditEntry, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import { conflict, unauthorized, unprocessable } from '#shared/errors.ts';
import { campaignUnlockResource, eventCounterKey, merchantAudience, recordEvent } from '#shared/domain/events/catalogue.ts';
import { Campaign } from '#shared/domain/loyalty/campaigns.ts';
import { isoSeconds } from '#shared/time.ts';

/** What an unlocking did: the campaign, the user, and until when (null: no end of its own). */
export interface UnlockOutcome {
  campaign_id: number;
  user_id: number;
  expires_at: string | null;
}

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

/** Rounds an unlocking retries against concurrent unlockings of the same campaign and user (its event's counter). */
const ROUNDS = 8;
const CONTENDED = () => conflict('This campaign is being unlocked for this user by another request; retry shortly.', 1, 'campaign_unlocking', 'in_progress');

/**
 * A merchant unlocks one of its locked campaigns for a user (by email or id), optionally until
 * expires_at. Unlocking again replaces the previous unlocking (e.g. to extend it). Each unlocking is
 * one transaction with its `campaign.unlocked` event (docs/events.md): the campaign, the user named by
 * id and the unlocking's event counter are one BatchGetItem; a user named by email costs the login's read.
 */
export async function unlockCampaign(
  merchantId: number,
  request: UnlockRequest,
  at = new Date(),
  /** A staff member's unlocking (the management route): its audit entry and stored answer, in the unlocking's transaction. */
  keyed?: { audit: AuditContext; storeResponse: (unlocking: UnlockOutcome) => TransactItem | undefined },
): Promise<UnlockOutcome> {
  const email = request.email !== undefined && request.email.trim() !== '' ? request.email : undefined;
  const byIdCounter = request.user_id === undefined ? undefined : eventCounterKey(campaignUnlockResource(request.target_campaign_id, request.user_id));
  const [campaignItem, userItem, loginItem, counterById] = await readItems(
    [
      keys.campaign(request.target_campaign_id),
      ...(request.user_id === undefined ? [] : [keys.user(request.user_id)]),
      ...(email === undefined ? [] : [keys.login(email)]),
      ...(byIdCounter ? [byIdCounter] : []),
    ],
    { consistent: true },
  ).then((items) => {
    let next = 1;
    const userRead = request.user_id === undefined ? undefined : items[next++];
    const loginRead = email === undefined ? undefined : items[next++];
    return [items[0], userRead, loginRead, byIdCounter ? items[next] : undefined] as const;
  });
  const campaign = Campaign.from(campaignItem);
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
  const userId = resolveUser(request, email, userItem, loginItem);
  const now = isoSeconds(at);
  const unlocking = {
    ...keys.userUnlock(userId, campaign.merchant_id, campaign.campaign_id),
    entity: 'CampaignUnlock',
    user_id: userId,
    merchant_id: campaign.merchant_id,
    campaign_id: campaign.campaign_id,
    expires_at: expiresAt,
    unlocked_by_merchant_id: merchantId,
    created_at: now,
    updated_at: now,
  };
  const resource = campaignUnlockResource(campaign.campaign_id, userId);
  // The merchant's view of the unlocking: what it asked for (by the request's names) and when it took effect.
  const data = { target_campaign_id: campaign.campaign_id, user_id: userId, expires_at: expiresAt, unlocked_at: now };
  const outcome: UnlockOutcome = { campaign_id: campaign.campaign_id, user_id: userId, expires_at: expiresAt };
  const keyedItems = keyed
    ? [
        auditEntry(
          keyed.audit,
          { merchantId, action: 'customer.campaign_unlocked', object: { type: 'campaign', id: campaign.campaign_id }, after: outcome },
          at,
        ),
        keyed.storeResponse(outcome),
      ].filter((item) => item !== undefined)
    : [];
  let first = request.user_id === userId;
  const written = await transactWrite(async () => {
    // The counter read with the campaign serves the first build only; a retry reads it afresh.
    const counter = first ? (counterById ?? null) : undefined;
    first = false;
    return [
      { Put: { TableName: table(), Item: unlocking } },
      ...(await recordEvent('campaign.unlocked', resource, merchantAudience(merchantId), data, { counter })),
      ...keyedItems,
    ];
  }, ROUNDS);
  if (!written.committed) throw CONTENDED();
  return outcome;
}

/** The user the request names (by id, by email, or both naming the same user), from the items read with the campaign. */
function resolveUser(request: UnlockRequest, email: string | undefined, user: StoredItem | undefined, login: StoredItem | undefined): number {
  let byId: number | undefined;
  let byEmail: number | undefined;
  if (request.user_id !== undefined) {
    if (typeof user?.user_id !== 'number') throw unprocessable('campaign_unlocking', 'user_id', 'User ID does not match any User', 'not_found');
    byId = user.user_id;
  }
  if (email !== undefined) {
    if (login?.subject !== 'user') throw unprocessable('campaign_unlocking', 'email', 'Email does not match any User', 'not_found');
    byEmail = login.user_id as number;
  }
  if (byId !== undefined && byEmail !== undefined && byId !== byEmail) {
    throw unprocessable('campaign_unlocking', 'base', 'Email and user ID belong to different users', 'mismatch');
  }
  const userId = byId ?? byEmail;
  if (userId === undefined) throw unprocessable('campaign_unlocking', 'email', "Email can't be blank (give email or user_id)", 'missing');
  return userId;
}
