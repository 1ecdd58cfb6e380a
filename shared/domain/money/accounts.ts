/**
 * The ledger's chart of accounts (ledger.ts writes the movements): the kinds of movement, the account names,
 * and which account each movement's other leg lands on (`CONTRA`, docs/money.md "Accounts and transfers").
 * Apart from ledger.ts so the operators' audit (ledger-audit.ts) reads the same rules without importing the
 * writer that re-exports it; the ledger's stored items (Balance, LedgerEntry, ContraLedgerEntry) are defined
 * here for the same reason.
 */
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';

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
export const LedgerEntry = defineEntity<LegAttributes & { written_at_ms?: number; gsi1pk?: string; gsi1sk?: string }>()({
  entity: 'LedgerEntry',
  key: keys.ledgerEntry,
});

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

/** The other account of a movement on `account`: its explicit `contra` (checked against CONTRA_OVERRIDES) or CONTRA's. */
export function contraOf(account: string, movement: Movement): string {
  if (movement.contra === undefined) {
    const contra = CONTRA[movement.kind](parseAccount(account));
    if (contra.startsWith(UNNAMED)) throw new Error(`${movement.kind} on ${account} must name its other account (Movement.contra)`);
    return contra;
  }
  const refusal = contraRefusal(movement.kind, account, movement.contra);
  if (refusal) throw new Error(refusal);
  return movement.contra;
}
