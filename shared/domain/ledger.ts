/**
 * The money ledger. Every movement of value (gift card load, credit applied or earned, card charge,
 * refund, reversal) is an immutable ledger entry, written in the SAME TransactWriteItems as the balance
 * it changes, so a balance always equals the sum of its account's entries (`auditLedger()` checks it).
 *
 * Accounts, one balance item each (`keys.balance(account)`):
 * - `giftcard:<userId>:<merchantId>` — gift card value the user holds at the merchant ("value at merchant").
 * - `credit:<userId>:<merchantId>` — merchant-funded credit (what a proposed order's discount_amount
 *   offers and applied_discount_amount consumes; loyalty rewards add to it).
 * - `card:<userId>:<merchantId>` — net amount charged to the user's card by that merchant (charges
 *   minus refunds); a refund can never return more than was charged.
 *
 * Guards: a ledger entry's sort key is the movement's natural id (e.g. `order:<uuid>:card_charge`) and is
 * written with attribute_not_exists, so the same movement can never be recorded twice; a debit carries
 * `balance >= :debit`, so no balance goes negative, except the credit a refund claws back (`mayGoNegative`);
 * `version` counts the entries (the audit compares).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { scanAll } from '#shared/db/reads.ts';
import { putNew, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { isoSeconds } from '#shared/time.ts';

export type LedgerKind =
  | 'gift_card_load'
  | 'gift_card_redeemed'
  | 'gift_card_restored'
  | 'credit_applied'
  | 'credit_restored'
  | 'credit_earned'
  | 'credit_reversed'
  | 'card_charge'
  | 'card_refund'
  // loyalty: a paused reward's value moves from the credit account to `pausedcredit:<u>:<m>` and back
  | 'credit_paused'
  | 'credit_unpaused'
  // POS money (shared/domain/pos/): credit granted by a merchant or a detached refund, expired, gift card value removed
  | 'credit_granted'
  | 'credit_expired'
  | 'detached_refund'
  // an order's refund takes back detached refund credit its refunded charge no longer covers (orders/refunds.ts)
  | 'detached_refund_reversed'
  | 'gift_card_removed';

export function giftCardAccountKey(userId: number, merchantId: number): string {
  return `giftcard:${userId}:${merchantId}`;
}

/** The merchant-funded credit account of a user at a merchant (loyalty rewards credit it). */
export function creditAccountKey(userId: number, merchantId: number): string {
  return `credit:${userId}:${merchantId}`;
}

export function cardAccountKey(userId: number, merchantId: number): string {
  return `card:${userId}:${merchantId}`;
}

/**
 * Only merchant-funded credit may go below zero: a refund takes back the credit its order earned even
 * when the user already spent it (docs/money.md, "Refunds"), and later earnings repay that debt first.
 */
export function mayGoNegative(account: string): boolean {
  return account.startsWith('credit:');
}

export interface Movement {
  kind: LedgerKind;
  /** Signed cents: positive adds to the balance, negative takes from it. Zero movements are skipped. */
  amount: number;
  /** Natural, unique id of the movement within the account (e.g. `order:<uuid>:credit_applied`). */
  entryId: string;
  /** What caused it, for people reading the ledger (order uuid, addition uuid, gateway charge id...). */
  reference?: Record<string, string | number | null>;
}

export interface BalanceItem {
  account: string;
  balance: number;
  version: number;
}

/**
 * Transact items that apply `movements` to one account: one balance update and one Put per entry.
 * `expectedVersion` makes the update optimistic (used when the caller shows the old balance, as gift card
 * additions do); without it the update is a blind ADD guarded only against going negative.
 */
export function balanceChangeItems(account: string, movements: Movement[], options: { expectedVersion?: number; now?: string; allowNegative?: boolean } = {}): TransactItem[] {
  const effective = movements.filter((movement) => movement.amount !== 0);
  if (effective.length === 0 && options.expectedVersion === undefined) return [];
  const now = options.now ?? isoSeconds();
  const delta = effective.reduce((sum, movement) => sum + movement.amount, 0);
  // The movements land together, so only the net change can take the balance below zero
  // (a refund restores a discount and reverses earned credit in one step).
  const debit = Math.max(0, -delta);
  const [kind, userId, merchantId] = account.split(':');
  const conditions: string[] = [];
  const values: Record<string, unknown> = {
    ':delta': delta,
    ':count': effective.length,
    ':entity': 'Balance',
    ':account': account,
    ':kind': kind,
    ':user': Number(userId),
    ':merchant': Number(merchantId),
    ':now': now,
  };
  if (debit > 0 && !options.allowNegative) {
    conditions.push('balance >= :debit');
    values[':debit'] = debit;
  }
  if (options.expectedVersion !== undefined) {
    conditions.push(options.expectedVersion === 0 ? '(attribute_not_exists(version) OR version = :expected)' : 'version = :expected');
    values[':expected'] = options.expectedVersion;
  }
  const items: TransactItem[] = [
    {
      Update: {
        TableName: table(),
        Key: keys.balance(account),
        UpdateExpression:
          'ADD balance :delta, version :count SET entity = :entity, account = :account, account_kind = :kind, user_id = :user, merchant_id = :merchant, updated_at = :now, created_at = if_not_exists(created_at, :now)',
        ConditionExpression: conditions.length > 0 ? conditions.join(' AND ') : undefined,
        ExpressionAttributeValues: values,
      },
    },
  ];
  for (const movement of effective) {
    items.push(
      putNew({
        ...keys.ledgerEntry(account, movement.entryId),
        entity: 'LedgerEntry',
        account,
        entry_id: movement.entryId,
        kind: movement.kind,
        amount: movement.amount,
        reference: movement.reference ?? {},
        created_at: now,
      }),
    );
  }
  return items;
}

/**
 * Credit earned outside an order (e.g. a merchant unlocking a campaign): balance + ledger entry. Inside an
 * order's completion do not use this: loyalty's `completionEffects` returns `creditEarnedAmount` and the
 * settlement writes it.
 */
export function creditEarnedTransactItems(input: { userId: number; merchantId: number; amount: number; entryId: string; reference?: Movement['reference'] }): TransactItem[] {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw new Error('credit earned must be a positive integer amount of cents');
  return balanceChangeItems(creditAccountKey(input.userId, input.merchantId), [
    { kind: 'credit_earned', amount: input.amount, entryId: input.entryId, reference: input.reference },
  ]);
}

/** Adds merchant-funded credit on its own transaction (idempotent by entryId: a repeat changes nothing). */
export async function addCredit(input: { userId: number; merchantId: number; amount: number; entryId: string; reference?: Movement['reference'] }): Promise<{ added: boolean }> {
  const outcome = await transactWrite(() => creditEarnedTransactItems(input));
  return { added: outcome.committed };
}

export async function getBalance(account: string): Promise<BalanceItem> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.balance(account), ConsistentRead: true }));
  return { account, balance: Number(result.Item?.balance ?? 0), version: Number(result.Item?.version ?? 0) };
}

export interface AuditMismatch {
  account: string;
  balance: number;
  ledgerSum: number;
  version: number;
  entryCount: number;
  problem: 'sum' | 'version' | 'negative';
}

export interface AuditReport {
  accounts: number;
  entries: number;
  mismatches: AuditMismatch[];
}

/** Recomputes every balance from the ledger (a full scan: an operator's tool, not a request path). */
export async function auditLedger(): Promise<AuditReport> {
  const balances = new Map<string, { balance: number; version: number }>();
  const sums = new Map<string, { sum: number; count: number }>();
  let entries = 0;
  const items = await scanAll({
    TableName: table(),
    FilterExpression: 'entity IN (:balance, :entry)',
    ExpressionAttributeValues: { ':balance': 'Balance', ':entry': 'LedgerEntry' },
    ConsistentRead: true,
  });
  for (const item of items) {
    const account = String(item.account);
    if (item.entity === 'Balance') {
      balances.set(account, { balance: Number(item.balance ?? 0), version: Number(item.version ?? 0) });
    } else {
      entries += 1;
      const current = sums.get(account) ?? { sum: 0, count: 0 };
      sums.set(account, { sum: current.sum + Number(item.amount), count: current.count + 1 });
    }
  }

  const mismatches: AuditMismatch[] = [];
  for (const account of new Set([...balances.keys(), ...sums.keys()])) {
    const { balance, version } = balances.get(account) ?? { balance: 0, version: 0 };
    const { sum, count } = sums.get(account) ?? { sum: 0, count: 0 };
    const facts = { account, balance, ledgerSum: sum, version, entryCount: count };
    if (balance !== sum) mismatches.push({ ...facts, problem: 'sum' });
    else if (version !== count) mismatches.push({ ...facts, problem: 'version' });
    else if (balance < 0 && !mayGoNegative(account)) mismatches.push({ ...facts, problem: 'negative' });
  }
  return { accounts: balances.size, entries, mismatches };
}
