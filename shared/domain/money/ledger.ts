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
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
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
  | 'gift_card_removed'
  // a gift card order to an email with no account: held for that email, claimed by its account, or returned
  // to the buyer unclaimed (shared/domain/money/held-gifts.ts)
  | 'gift_held'
  | 'gift_claimed'
  | 'gift_returned';

/** A user-side account's stored balance (`keys.balance(account)`): what the account holds, and how many entries made it. */
export const Balance = defineEntity<{
  account: string;
  account_kind: string;
  /** Absent on a held gift's account (keyed by an email's hash). */
  user_id?: number;
  merchant_id: number;
  balance: number;
  /** How many entries the balance holds (the audit compares). */
  version: number;
  created_at: string;
  updated_at: string;
}>()({ entity: 'Balance', key: keys.balance });

/** The fields both legs of a transfer carry. */
interface LegAttributes {
  account: string;
  contra_account: string;
  transfer_id: string;
  entry_id: string;
  kind: LedgerKind;
  amount: number;
  reference: Record<string, string | number | null>;
  created_at: string;
}

/** A user-side account's leg (immutable), keyed by the movement's natural id. */
export const LedgerEntry = defineEntity<LegAttributes & { written_at_ms?: number }>()({ entity: 'LedgerEntry', key: keys.ledgerEntry });

/** A platform account's leg: its own tag, so readers of user-side entries (and their tests) are unchanged. */
export const ContraLedgerEntry = defineEntity<LegAttributes & { merchant_id: number }>()({ entity: 'ContraLedgerEntry', key: keys.ledgerEntry });

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

/** Accounts with a stored balance item (`<kind>:<userId>:<merchantId>`): what users hold or were charged. */
export const USER_ACCOUNT_KINDS = ['giftcard', 'credit', 'pausedcredit', 'card', 'detached', 'held'] as const;

/**
 * Platform accounts: where value enters and leaves. Only legs, no stored balance (see the header).
 * - `gateway` — the card gateway: card charges come from it, card refunds go back to it.
 * - `funding` — the merchant's funded credit: rewards, grants, detached refunds, adjustments come from it;
 *   reversed and expired credit go back.
 * - `till` — the merchant's till: POS gift card loads come from it, removals go back.
 * - `redeemed` / `discounts` — gift card value / credit spent on orders (a refund gives it back).
 * - `purchases:<buyerId>:<merchantId>` — what a buyer paid for gift card value orders (the recipient's load).
 * - `detachedissued` — the merchant's side of the `detached` tally.
 */
export const PLATFORM_ACCOUNT_KINDS = ['gateway', 'funding', 'till', 'redeemed', 'discounts', 'purchases', 'detachedissued'] as const;

export type UserAccountKind = (typeof USER_ACCOUNT_KINDS)[number];
export type PlatformAccountKind = (typeof PLATFORM_ACCOUNT_KINDS)[number];

export interface AccountRef {
  account: string;
  kind: string;
  /** The user of a user-side account (or the buyer of `purchases`); undefined for merchant-wide and held accounts. */
  userId: number | undefined;
  merchantId: number;
}

export function parseAccount(account: string): AccountRef {
  const parts = account.split(':');
  const [kind = ''] = parts;
  if (parts.length === 2) return { account, kind, userId: undefined, merchantId: Number(parts[1]) };
  const userId = Number(parts[1]);
  // `held:<emailKey>:<merchantId>` is keyed by an email's hash: no user (yet).
  return { account, kind, userId: Number.isInteger(userId) ? userId : undefined, merchantId: Number(parts[2]) };
}

export function isUserAccount(account: string): boolean {
  return (USER_ACCOUNT_KINDS as readonly string[]).includes(parseAccount(account).kind);
}

export function platformAccountKey(kind: Exclude<PlatformAccountKind, 'purchases'>, merchantId: number): string {
  return `${kind}:${merchantId}`;
}

/** The account a gift card value order's load comes from: its buyer (`Movement.contra`). */
export function purchasesAccountKey(buyerUserId: number, merchantId: number): string {
  return `purchases:${buyerUserId}:${merchantId}`;
}

const fromPlatform = (kind: Exclude<PlatformAccountKind, 'purchases'>) => (account: AccountRef) => platformAccountKey(kind, account.merchantId);

/**
 * For kinds whose other account only the movement can name (its buyer, the email it was held for): no account
 * is ever called this, so only CONTRA_OVERRIDES' pairs admit such a movement.
 */
const UNNAMED = 'unnamed:';
const namedByMovement = (account: AccountRef) => `${UNNAMED}${account.kind}:${account.merchantId}`;

/** A reward's value moves between a user's credit and paused-credit accounts: both legs are user-side. */
const pausePartner = (account: AccountRef): string => {
  if (account.userId === undefined) throw new Error(`no pause partner for ${account.account}`);
  return account.kind === 'credit' ? `pausedcredit:${account.userId}:${account.merchantId}` : creditAccountKey(account.userId, account.merchantId);
};

/**
 * The other account of each kind of movement. A Record over LedgerKind: a new kind does not compile until
 * it names where its value comes from (or goes to).
 */
export const CONTRA: Record<LedgerKind, (account: AccountRef) => string> = {
  gift_card_load: fromPlatform('till'),
  gift_card_removed: fromPlatform('till'),
  gift_card_redeemed: fromPlatform('redeemed'),
  gift_card_restored: fromPlatform('redeemed'),
  credit_applied: fromPlatform('discounts'),
  credit_restored: fromPlatform('discounts'),
  credit_earned: fromPlatform('funding'),
  credit_granted: fromPlatform('funding'),
  credit_reversed: fromPlatform('funding'),
  credit_expired: fromPlatform('funding'),
  detached_refund: (account) => platformAccountKey(account.kind === 'detached' ? 'detachedissued' : 'funding', account.merchantId),
  // An order refund takes back the detached credit its charge no longer covers: the same accounts, reversed.
  detached_refund_reversed: (account) => platformAccountKey(account.kind === 'detached' ? 'detachedissued' : 'funding', account.merchantId),
  card_charge: fromPlatform('gateway'),
  card_refund: fromPlatform('gateway'),
  credit_paused: pausePartner,
  credit_unpaused: pausePartner,
  gift_held: namedByMovement,
  gift_claimed: namedByMovement,
  gift_returned: namedByMovement,
};

type AccountKind = UserAccountKind | PlatformAccountKind;

/**
 * The (own account kind, other account kind) pairs a movement may name in `contra` instead of CONTRA's (the
 * audit's source rule): a gift card order's load comes from its buyer; a held gift comes from its buyer, goes
 * to the gift card of the account that claims it, or back to the buyer.
 */
export const CONTRA_OVERRIDES: Partial<Record<LedgerKind, readonly (readonly [AccountKind, AccountKind])[]>> = {
  gift_card_load: [['giftcard', 'purchases']],
  gift_held: [['held', 'purchases']],
  gift_claimed: [
    ['held', 'giftcard'],
    ['giftcard', 'held'],
  ],
  gift_returned: [['held', 'purchases']],
};

/** Why `contra` may not be used for a movement (undefined when it may): same merchant, an allowed pair of kinds. */
export function contraRefusal(kind: LedgerKind, account: string, contra: string): string | undefined {
  const own = parseAccount(account);
  const other = parseAccount(contra);
  if (contra === CONTRA[kind](own) && !contra.startsWith(UNNAMED)) return undefined;
  if (other.merchantId !== own.merchantId) return `${kind} on ${account} cannot move value from another merchant's ${contra}`;
  if (!CONTRA_OVERRIDES[kind]?.some(([ownKind, otherKind]) => ownKind === own.kind && otherKind === other.kind))
    return `${kind} on ${account} cannot come from ${contra}`;
  return undefined;
}

/** One id for both legs, the same whichever leg computes it. */
export function transferId(account: string, contra: string, entryId: string): string {
  const [first, second] = [account, contra].sort();
  return `${first}|${second}|${entryId}`;
}

/** The platform leg's entry id: its account receives the legs of many user accounts. */
function contraEntryId(account: string, entryId: string): string {
  return `${account}#${entryId}`;
}

/**
 * The platform leg of a movement on `account` (undefined when the other leg is user-side: its own
 * balanceChangeItems call writes it, as pausing does). Also what the migration writes for old entries.
 */
export function contraLegItem(input: {
  account: string;
  contra: string;
  kind: LedgerKind;
  amount: number;
  entryId: string;
  reference: Movement['reference'];
  now: string;
}): TransactItem | undefined {
  if (isUserAccount(input.contra)) return undefined;
  return ContraLedgerEntry.at(input.contra, contraEntryId(input.account, input.entryId)).putNew({
    account: input.contra,
    contra_account: input.account,
    transfer_id: transferId(input.account, input.contra, input.entryId),
    entry_id: input.entryId,
    merchant_id: parseAccount(input.contra).merchantId,
    kind: input.kind,
    amount: -input.amount,
    reference: input.reference ?? {},
    created_at: input.now,
  });
}

/** A platform account's leg: not `LedgerEntry`, so readers of user-side entries (and their tests) are unchanged. */
export const CONTRA_ENTRY = ContraLedgerEntry.entity;

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
  /**
   * The other account of the transfer when `CONTRA[kind]` cannot name it (e.g. `purchasesAccountKey(buyer)`
   * for a gift card order's load); only the kinds CONTRA_OVERRIDES lists, at the same merchant.
   */
  contra?: string;
}

function contraOf(account: string, movement: Movement): string {
  if (movement.contra === undefined) {
    const contra = CONTRA[movement.kind](parseAccount(account));
    if (contra.startsWith(UNNAMED)) throw new Error(`${movement.kind} on ${account} must name its other account (Movement.contra)`);
    return contra;
  }
  const refusal = contraRefusal(movement.kind, account, movement.contra);
  if (refusal) throw new Error(refusal);
  return movement.contra;
}

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
