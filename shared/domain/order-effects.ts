/**
 * How other areas (loyalty) take part in the money transactions of order completion and refund.
 *
 * Completion and refund each commit ONE DynamoDB TransactWriteItems: the order, the balances, the
 * ledger entries and the source's state transition. Loyalty progress and earned credit must be in that
 * same transaction, or a crash could leave an order without its progress (or progress without an
 * order). So loyalty does not write on its own here: it returns transact items, and checkout.ts puts
 * them into its transaction.
 *
 * Rules for implementations:
 * - Read whatever you need (campaigns, progress) and return the writes; do not write yourself.
 * - Guard each returned item with a condition (e.g. a version on the progress item) so a concurrent
 *   change cancels the whole transaction instead of being overwritten. Checkout retries a cancelled
 *   transaction a few times, calling `onCompleted` again with fresh reads.
 * - Keep the item count small: the whole transaction may hold at most 100 items and money uses about
 *   15. `MAX_ORDER_EFFECT_ITEMS` is the budget; checkout rejects more (a 500, a programming error).
 * - Credit earned on an order is merchant-funded credit at the order's merchant. Report it as
 *   `creditEarnedAmount`: checkout credits `creditAccountKey(userId, merchantId)` (ledger.ts) with a
 *   `credit_earned` ledger entry in the same transaction and shows it as credit_earned_amount /
 *   earn_amount. Do NOT write that balance yourself inside an order: checkout already updates that
 *   item (the applied discount debits it) and DynamoDB rejects two writes to one item per transaction.
 *   Outside orders (e.g. a merchant unlocking a campaign gives credit), use
 *   `creditEarnedTransactItems()` / `addCredit()` from shared/domain/ledger.ts.
 * - `onRefunded` reverses what `onCompleted` did (progress, unredeemed credit). The earned credit
 *   reversal itself is done by checkout from the order's recorded `credit_earned_amount`; return
 *   only the non-money items (e.g. progress) and `creditReversedAmount: 0` unless you reversed
 *   credit yourself.
 */
import type { Key } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';

/** How many items the effects may add to one completion or refund transaction. */
export const MAX_ORDER_EFFECT_ITEMS = 60;

export interface OrderItemInput {
  name: string;
  description: string;
  quantity?: number;
  charged_price_amount: number;
  standard_price_amount?: number;
  sku?: string | null;
  upc?: string | null;
  category?: string | null;
  children?: OrderItemInput[];
}

export interface CompletedOrderContext {
  orderUuid: string;
  merchantId: number;
  locationId: number;
  userId: number;
  appId: number;
  source: 'in_store' | 'order_ahead';
  /** Approved spend (cents, excluding tip) after partial authorization. */
  spendAmount: number;
  /** The part of spendAmount that earns progress: spend minus exemption, never negative. */
  qualifyingSpendAmount: number;
  exemptionAmount: number;
  taxAmount: number;
  tipAmount: number;
  appliedDiscountAmount: number;
  giftCardTotalAmount: number;
  chargedAmount: number;
  items: OrderItemInput[];
  /** ISO 8601 seconds of the completion. */
  completedAt: string;
}

export interface RefundedOrderContext {
  orderUuid: string;
  merchantId: number;
  userId: number;
  spendAmount: number;
  qualifyingSpendAmount: number;
  /** Credit earned on the order (what checkout will try to reverse). */
  creditEarnedAmount: number;
  refundedAt: string;
  /**
   * Items checkout read for this implementation together with the order (see `refundReadKeys`), in the
   * same BatchGetItem: `{ item }` (item undefined when it does not exist), or undefined when that key
   * was not read (e.g. on a retry, which must read afresh).
   */
  prefetched?: (key: Key) => { item: Record<string, unknown> | undefined } | undefined;
}

export interface OrderEffectsResult {
  /** Extra guarded writes committed in the same transaction as the order. */
  transactItems: TransactItem[];
  /**
   * Merchant-funded credit earned at the order's merchant. Checkout credits the account
   * `creditAccountKey(userId, merchantId)` by this amount with a `credit_earned` ledger entry, in the
   * same transaction. Do NOT also include a balance write for that account in `transactItems`.
   */
  creditEarnedAmount: number;
}

export interface RefundEffectsResult {
  transactItems: TransactItem[];
  /** Credit this implementation reversed itself (normally 0: checkout reverses earned credit). */
  creditReversedAmount: number;
}

export interface OrderEffects {
  onCompleted(context: CompletedOrderContext): Promise<OrderEffectsResult>;
  onRefunded(context: RefundedOrderContext): Promise<RefundEffectsResult>;
  /** Keys onRefunded will need that depend only on the order uuid: checkout reads them with the order. */
  refundReadKeys?(orderUuid: string): Key[];
}

export const noOrderEffects: OrderEffects = {
  onCompleted: async () => ({ transactItems: [], creditEarnedAmount: 0 }),
  onRefunded: async () => ({ transactItems: [], creditReversedAmount: 0 }),
};

let registeredEffects: OrderEffects = noOrderEffects;

/**
 * Loyalty registers its effects at module load, e.g. in shared/domain/loyalty/order-effects.ts:
 * `registerOrderEffects({ onCompleted, onRefunded })`. Registration must run in every Lambda that
 * completes or refunds orders, so checkout imports shared/domain/order-effects-registry.ts, and that
 * file imports the implementation (one line: `import './loyalty/order-effects.ts';`).
 */
export function registerOrderEffects(effects: OrderEffects): void {
  registeredEffects = effects;
}

export function orderEffects(): OrderEffects {
  return registeredEffects;
}
