/**
 * The money ledger: balanced, double-entry. Every movement of value (gift card load, credit applied or
 * earned, card charge, refund, reversal) is a TRANSFER between two accounts, written as two immutable legs
 * (equal and opposite amounts, one shared `transfer_id`) in the SAME TransactWriteItems as the balance it
 * changes. So the sum of all legs is zero after every transaction, and every value a user holds came from a
 * named source account (`auditLedger()` in ledger-audit.ts checks both, and that a stored balance equals its legs).
 *
 * User-side accounts, one stored balance item each (`keys.balance(account)`), `<kind>:<userId>:<merchantId>`:
 * - `giftcard` — gift card value the user holds at the merchant ("value at merchant").
 * - `credit` — merchant-funded credit (what a proposed order's discount_amount offers and
 *   applied_discount_amount consumes; loyalty rewards add to it); `pausedcredit` — a paused reward's value.
 * - `card` — net amount charged to the user's card by that merchant (charges minus refunds); a refund can
 *   never return more than was charged. `detached` — the running total of detached refunds (a tally).
 * - `held` — gift card value bought for an email that has no account yet, `held:<emailKey>:<merchantId>`
 *   (the email's hash, not a user id: held-gifts.ts): a liability until that email's account claims it.
 *
 * Platform accounts (sources and sinks), `<kind>:<merchantId>` (a buyer's `purchases:<userId>:<merchantId>`):
 * NO stored balance item, only legs (a per-merchant item every order updated would make concurrent orders of
 * one merchant conflict); the audit derives their balances. Which one a movement's other leg lands on is
 * `CONTRA[kind]` (docs/money.md, "Accounts and transfers"), or the movement's explicit `contra` where the kind
 * alone cannot name it (a gift card order's load comes from its buyer).
 *
 * Guards: a user-side leg's sort key is the movement's natural id (e.g. `order:<uuid>:card_charge`), a
 * platform leg's is that account plus id, both written with attribute_not_exists, so the same movement can
 * never be recorded twice; a debit carries `balance >= :debit`, so no balance goes negative, except the
 * credit a refund claws back (`mayGoNegative`); `version` counts the entries (the audit compares).
 */
import { and, balanceCovers, versionIs, type Condition } from '#shared/db/conditions.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { keys } from '#shared/db/keys.ts';
import { isoSeconds } from '#shared/time.ts';
import { Balance, contraLegItem, contraOf, creditAccountKey, LedgerEntry, parseAccount, transferId, type Movement } from '#shared/domain/money/accounts.ts';

// The chart of accounts lives in accounts.ts; re-exported so every caller keeps importing the ledger.
export * from '#shared/domain/money/accounts.ts';

export interface BalanceItem {
  account: string;
  balance: number;
  version: number;
}

/**
 * Transact items that apply `movements` to one account: one balance update, and per movement its entry and
 * (when the other account is a platform one) the other leg of its transfer: at most 1 + 2 x movements items.
 * `expectedVersion` makes the update optimistic (used when the caller shows the old balance, as gift card
 * additions do); without it the update is a blind ADD guarded only against going negative.
 */
export function balanceChangeItems(
  account: string,
  movements: Movement[],
  options: { expectedVersion?: number; now?: string; allowNegative?: boolean } = {},
): TransactItem[] {
  const effective = movements.filter((movement) => movement.amount !== 0);
  if (effective.length === 0 && options.expectedVersion === undefined) return [];
  const now = options.now ?? isoSeconds();
  const delta = effective.reduce((sum, movement) => sum + movement.amount, 0);
  // The movements land together, so only the net change can take the balance below zero
  // (a refund restores a discount and reverses earned credit in one step).
  const debit = Math.max(0, -delta);
  const { kind, userId, merchantId } = parseAccount(account);
  const conditions: Condition<'balance' | 'version'>[] = [];
  if (debit > 0 && !options.allowNegative) conditions.push(balanceCovers(debit));
  if (options.expectedVersion !== undefined) conditions.push(versionIs(options.expectedVersion));
  const items: TransactItem[] = [
    Balance.at(account).update(
      {
        add: { balance: delta, version: effective.length },
        // A held gift's account is keyed by an email's hash, not a user: it has no user_id.
        set: { account, account_kind: kind, user_id: Number.isInteger(userId) ? userId : undefined, merchant_id: merchantId, updated_at: now },
        setIfAbsent: { created_at: now },
        creates: true,
      },
      conditions.length > 0 ? and(...conditions) : undefined,
    ),
  ];
  for (const movement of effective) {
    const contra = contraOf(account, movement);
    const reference = movement.reference ?? {};
    items.push(
      LedgerEntry.at(account, movement.entryId).putNew({
        account,
        entry_id: movement.entryId,
        kind: movement.kind,
        amount: movement.amount,
        reference,
        contra_account: contra,
        transfer_id: transferId(account, contra, movement.entryId),
        created_at: now,
        // Orders movements of one second (created_at has whole seconds): credit expiry replays them in order.
        written_at_ms: Date.now(),
        // The merchant's entries by time: what the ledger CSV export reads (shared/domain/reports/exports.ts).
        ...keys.merchantLedgerIndex(merchantId, now, account, movement.entryId),
      }),
    );
    const contraLeg = contraLegItem({ account, contra, kind: movement.kind, amount: movement.amount, entryId: movement.entryId, reference, now });
    if (contraLeg) items.push(contraLeg);
  }
  return items;
}

/**
 * Credit earned outside an order (e.g. a merchant unlocking a campaign): balance + ledger entry. Inside an
 * order's completion do not use this: loyalty's `completionEffects` returns `creditEarnedAmount` and the
 * settlement writes it.
 */
export function creditEarnedTransactItems(input: {
  userId: number;
  merchantId: number;
  amount: number;
  entryId: string;
  reference?: Movement['reference'];
}): TransactItem[] {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw new Error('credit earned must be a positive integer amount of cents');
  return balanceChangeItems(creditAccountKey(input.userId, input.merchantId), [
    { kind: 'credit_earned', amount: input.amount, entryId: input.entryId, reference: input.reference },
  ]);
}

/** Adds merchant-funded credit on its own transaction (idempotent by entryId: a repeat changes nothing). */
export async function addCredit(input: {
  userId: number;
  merchantId: number;
  amount: number;
  entryId: string;
  reference?: Movement['reference'];
}): Promise<{ added: boolean }> {
  const outcome = await transactWrite(() => creditEarnedTransactItems(input));
  return { added: outcome.committed };
}

export async function getBalance(account: string): Promise<BalanceItem> {
  const item = await Balance.at(account).get({ consistent: true });
  return { account, balance: item?.balance ?? 0, version: item?.version ?? 0 };
}

// The operators' whole-table tools live beside it; re-exported so every caller keeps importing the ledger.
export {
  auditLedger,
  migrateLedger,
  type AuditMismatch,
  type AuditReport,
  type BalanceMismatch,
  type LedgerMigration,
  type TransferMismatch,
} from '#shared/domain/money/ledger-audit.ts';
