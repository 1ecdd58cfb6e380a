/**
 * Available credit: the ONE definition of what a customer can spend at a merchant, read by every POS
 * credit check (location credit, merchant_funded_credit, gift card credit) and by the proposed order,
 * so the figures a POS is shown are exactly what the next proposed order offers and its completion applies.
 *
 * - merchant-funded credit: the `credit:<user>:<merchant>` balance (never below 0 as offered), after
 *   expired grants have left it;
 * - gift card value: the `giftcard:<user>:<merchant>` balance (a tender, applied at completion).
 *
 * Expiring credit (POST /v15/merchant_funded_credits with a duration): each grant is listed on the
 * user's grants item for the merchant (`keys.creditGrants`, read in the same batch as the balances, so
 * checking for expiry costs no round trip). Once a grant's time has passed, `expireCredit` takes what is
 * left of it out of the credit account as a `credit_expired` ledger movement, in one conditional
 * transaction with the grants item, before any credit is offered or applied. What is left of a grant is
 * its own unspent remainder (credit-expiry.ts replays the account's entries into one bucket per grant:
 * spending draws from the earliest-expiring value first).
 */
import { keys, type Key } from '#shared/db/keys.ts';
import { projectionOf, queryAll, readItems, type StoredItem } from '#shared/db/reads.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { table } from '#shared/db/client.ts';
import { versionIs } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { backoff, CONTENTION_BACKOFF } from '#shared/db/transient.ts';
import { conflict } from '#shared/errors.ts';
import { grantsOfUnknownExpiry, replayCreditBuckets, unspentUpToBalance, type CreditLedgerEntry } from '#shared/domain/money/credit-expiry.ts';
import { Balance, balanceChangeItems, creditAccountKey, giftCardAccountKey, LedgerEntry } from '#shared/domain/money/ledger.ts';
import { isoSeconds } from '#shared/time.ts';

/** One open expiring grant, as listed on the grants item. */
export interface CreditGrantEntry {
  uuid: string;
  amount: number;
  granted_at: string;
  expires_at: string;
}

/** The open expiring grants of a user at a merchant, and the earliest expiry among them. */
export const CreditGrants = defineEntity<{
  grants: CreditGrantEntry[];
  next_expiry_at: string | null;
  user_id: number;
  merchant_id: number;
  updated_at: string;
  version: number;
}>()({ entity: 'CreditGrants', key: keys.creditGrants });

/** One grant of merchant-funded credit (POS `merchant_funded_credits`): kept after it closes, for its expiry. */
export const MerchantFundedCreditGrant = defineEntity<{
  uuid: string;
  merchant_id: number;
  user_id: number;
  value_amount: number;
  message: string | null | undefined;
  expires_at: string;
  created_at: string;
  /** The staff member who approved it (their manager code or own token); null: nobody named. */
  approved_by_staff_id?: number | null;
}>()({ entity: 'MerchantFundedCreditGrant', key: keys.creditGrant });

export interface AvailableCredit {
  /** Merchant-funded credit: what a proposed order offers as `discount_amount` (before the spend caps it). */
  merchantFunded: number;
  /** Gift card value at the merchant: the tender a completion applies after the discount. */
  giftCard: number;
}

/** The items available credit is computed from, in this order: one BatchGetItem (callers may add their own keys after them). */
export function availableCreditKeys(userId: number, merchantId: number): Key[] {
  return [Balance.key(creditAccountKey(userId, merchantId)), Balance.key(giftCardAccountKey(userId, merchantId)), CreditGrants.key(userId, merchantId)];
}

/** A balance as offered: a negative one (credit clawed back by a refund) offers nothing. */
function spendable(balance: StoredItem | undefined): number {
  return Math.max(0, Balance.from(balance)?.balance ?? 0);
}

/**
 * Available credit from the items `availableCreditKeys` named (read consistently): expired grants are
 * expired first (and the balances are those read after it), so expired credit is never offered.
 */
export async function availableCreditFrom(userId: number, merchantId: number, items: readonly (StoredItem | undefined)[]): Promise<AvailableCredit> {
  const [credit, giftCard] = await expireCredit(userId, merchantId, items);
  return { merchantFunded: spendable(credit), giftCard: spendable(giftCard) };
}

/** Available credit of a user at a merchant (one consistent BatchGetItem, plus the expiry of due grants). */
export async function availableCredit(userId: number, merchantId: number): Promise<AvailableCredit> {
  return availableCreditFrom(userId, merchantId, await readItems(availableCreditKeys(userId, merchantId), { consistent: true }));
}

/** Tries before an expiry that keeps losing races on the balance answers 409 (expired credit is never offered instead). */
const EXPIRY_ROUNDS = 5;
const EXPIRY_CONTENDED = () =>
  conflict("This customer's credit is being changed by another request; retry shortly.", 1, 'merchant_funded_credit', 'in_progress');

/**
 * Most ledger entries an expiry replays (the balance's `version` counts them): years of daily orders of one
 * user at one merchant. An account with more expires its due grants as if nothing of them had been spent,
 * never below a zero balance (the merchant's side of the doubt), without reading its entries.
 */
export const MAX_REPLAY_ENTRIES = 5_000;

export function expiryEntryId(grantUuid: string): string {
  return `mfcredit:${grantUuid}:expired`;
}

/** Every ledger entry of the credit account, with only what the replay reads. */
async function creditEntries(account: string): Promise<CreditLedgerEntry[]> {
  const prefix = keys.ledgerEntryPrefix(account);
  const { ProjectionExpression, ExpressionAttributeNames } = projectionOf(['entry_id', 'kind', 'amount', 'created_at', 'written_at_ms', 'reference']);
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': prefix.pk, ':prefix': prefix.skPrefix },
    ProjectionExpression,
    ExpressionAttributeNames,
    ConsistentRead: true,
  });
  // Projected: only the fields the replay reads are present.
  return items.flatMap((read) => {
    const item = LedgerEntry.from(read);
    return item
      ? [
          {
            entry_id: item.entry_id,
            kind: item.kind,
            amount: item.amount,
            created_at: item.created_at,
            written_at_ms: item.written_at_ms,
            reference: item.reference,
          },
        ]
      : [];
  });
}

/** The expiry of closed grants the entries do not tell (fully spent ones left no expiry entry): their grant records. */
async function closedGrantExpiries(uuids: readonly string[]): Promise<Map<string, string>> {
  if (uuids.length === 0) return new Map();
  const records = await readItems(
    uuids.map((uuid) => MerchantFundedCreditGrant.key(uuid)),
    { consistent: true, attributes: ['expires_at'] },
  );
  return new Map(
    uuids.flatMap((uuid, index) => {
      const expiresAt = MerchantFundedCreditGrant.from(records[index])?.expires_at;
      return typeof expiresAt === 'string' ? [[uuid, expiresAt] as const] : [];
    }),
  );
}

/** What each grant due now leaves behind: its bucket of the replayed ledger (credit-expiry.ts). */
async function dueRemainders(
  account: string,
  balanceItem: EntityItem<typeof Balance> | undefined,
  open: readonly CreditGrantEntry[],
  due: readonly CreditGrantEntry[],
): Promise<Map<string, number>> {
  const balance = balanceItem?.balance ?? 0;
  if ((balanceItem?.version ?? 0) > MAX_REPLAY_ENTRIES) return unspentUpToBalance(balance, due);
  const entries = await creditEntries(account);
  const closedGrants = await closedGrantExpiries(grantsOfUnknownExpiry(entries, open));
  const buckets = replayCreditBuckets({ balance, entries, openGrants: open, closedGrantExpiries: closedGrants });
  return new Map(due.map((grant) => [grant.uuid, Math.max(0, buckets.grants.get(grant.uuid) ?? 0)]));
}

/**
 * Takes what is left of every expired grant out of the credit account: one transaction with the grants
 * item (guarded by its version) and the balance (guarded by its version), so a concurrent order or grant
 * makes it read again, and each grant's expiry is one ledger entry, written once. What is left of a grant
 * is its own bucket (credit-expiry.ts): spending drew from the earliest-expiring value first, and nothing
 * else (another grant's expiry, a claw-back, a paused reward) counts as spending it. Expiry may leave the
 * balance negative: a claw-back's debt is repaid by later earnings, never by expiring credit.
 * `items` is what the caller read of `availableCreditKeys` (consistently): the first round works from it, and the
 * answer is those items as they are once nothing is due (unchanged, without a call, when nothing was).
 */
export async function expireCredit(
  userId: number,
  merchantId: number,
  items: readonly (StoredItem | undefined)[],
): Promise<readonly (StoredItem | undefined)[]> {
  const account = creditAccountKey(userId, merchantId);
  let read = items;
  for (let round = 1; ; round++) {
    const now = isoSeconds();
    const [balanceItem, grantsItem] = [Balance.from(read[0]), CreditGrants.from(read[2])];
    const grants = grantsItem?.grants ?? [];
    const due = grants.filter((grant) => grant.expires_at <= now).sort((a, b) => a.expires_at.localeCompare(b.expires_at));
    if (due.length === 0) return read;
    if (round > EXPIRY_ROUNDS) throw EXPIRY_CONTENDED();
    const remainders = await dueRemainders(account, balanceItem, grants, due);
    const movements = due.map((grant) => ({
      kind: 'credit_expired' as const,
      amount: -(remainders.get(grant.uuid) ?? 0),
      entryId: expiryEntryId(grant.uuid),
      // Where the replay puts this expiry among the account's entries (its version counts them).
      reference: { grant_uuid: grant.uuid, expires_at: grant.expires_at, entries_before: balanceItem?.version ?? 0 },
    }));
    const batch = new LabelledItems();
    batch.add(
      'grants',
      grantsListUpdate(
        userId,
        merchantId,
        grants.filter((grant) => grant.expires_at > now),
        grantsItem?.version ?? 0,
        now,
      ),
    );
    batch.add('balance', ...balanceChangeItems(account, movements, { expectedVersion: balanceItem?.version ?? 0, now, allowNegative: true }));
    // Guarded by the versions read: items the caller read before a concurrent change fail here, not spend.
    const outcome = await transactWrite(() => batch.items);
    if (!outcome.committed) await backoff(round, CONTENTION_BACKOFF);
    // Committed: what the expiry left is what the caller is answered with; else the next round works from it.
    read = await readItems(availableCreditKeys(userId, merchantId), { consistent: true });
  }
}

/** Replaces the open grants list, guarded by the version read (0: the item did not exist). */
export function grantsListUpdate(userId: number, merchantId: number, grants: readonly CreditGrantEntry[], expectedVersion: number, now: string): TransactItem {
  const nextExpiry = grants.map((grant) => grant.expires_at).sort()[0] ?? null;
  return CreditGrants.at(userId, merchantId).update(
    {
      set: { grants: [...grants], next_expiry_at: nextExpiry, user_id: userId, merchant_id: merchantId, updated_at: now },
      add: { version: 1 },
      creates: true,
    },
    versionIs(expectedVersion),
  );
}
