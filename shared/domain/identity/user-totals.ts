/**
 * A user's platform-wide totals: the User resource's `orders_count`, `merchants_visited_count` and
 * `total_savings_amount` (docs/identity.md, "What the totals count"; docs/data-model.md, UserTotals).
 *
 * One item beside the profile (`keys.userTotals`, sort key right after the profile's), never the profile item
 * itself, so an order and a profile update never conflict. It is written only inside the transactions that change the user's totals
 * at one merchant (loyalty/order-effects.ts: the completion adds, the refund takes back), with the same guards
 * as those (the order's loyalty record Put `attribute_not_exists` on completion, `reversed = false` on refund),
 * so a retry or a replay never counts twice. Every write is an unconditional ADD: concurrent orders of one user
 * (at different merchants; one merchant's settle one at a time) commute, and a refund needs no read.
 *
 * `merchants_visited_count` is not a stored number: the item keeps the user's order count at each merchant
 * (`orders_at_<merchant id>`, the same count as the user's stats item at that merchant), and the merchants visited
 * are those whose count is above 0. A stored count would need to know, inside the refund's transaction,
 * whether the order is the last one left at its merchant, which costs the refund a read; the per-merchant
 * counts make it an ADD like the others.
 */
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';

export interface UserTotals {
  /** Completed orders not refunded. */
  orders_count: number;
  /** Merchants where the user has at least one completed order not refunded. */
  merchants_visited_count: number;
  /** Merchant-funded credit applied to those orders (`applied_discount_amount`), cents. */
  total_savings_amount: number;
}

/** A user without the totals item (no order since the totals were kept): zeros, as the resource always answered. */
export const NO_TOTALS: Readonly<UserTotals> = Object.freeze({ orders_count: 0, merchants_visited_count: 0, total_savings_amount: 0 });

/** The attribute holding the user's order count at one merchant. */
const MERCHANT_ORDERS = 'orders_at_';
type MerchantOrders = `${typeof MERCHANT_ORDERS}${number}`;

export const StoredUserTotals = defineEntity<
  {
    user_id: number;
    orders_count: number;
    total_savings_amount: number;
    created_at: string;
    updated_at: string;
  } & { [merchantOrders: MerchantOrders]: number }
>()({ entity: 'UserTotals', key: keys.userTotals });

/**
 * Adds (or with -1, takes back) one order to the user's totals: one order, its savings, one order at its merchant.
 * Goes into the transaction that writes the order's per-merchant totals.
 */
export function userTotalsUpdate(userId: number, merchantId: number, savingsAmount: number, sign: 1 | -1, now: string): TransactItem {
  const atMerchant: MerchantOrders = `${MERCHANT_ORDERS}${merchantId}`;
  return StoredUserTotals.at(userId).update({
    add: { orders_count: sign, total_savings_amount: sign * savingsAmount, [atMerchant]: sign },
    set: { user_id: userId, updated_at: now },
    setIfAbsent: { created_at: now },
    creates: true,
  });
}

/** The totals a stored item holds (absent: zeros). Never below 0, as merchant loyalty shows its totals. */
export function userTotalsOf(item: Record<string, unknown> | undefined): UserTotals {
  const totals = StoredUserTotals.from(item);
  if (!totals) return NO_TOTALS;
  let visited = 0;
  for (const [name, value] of Object.entries(totals)) {
    if (name.startsWith(MERCHANT_ORDERS) && Number(value) > 0) visited++;
  }
  return {
    orders_count: Math.max(0, Number(totals.orders_count ?? 0)),
    merchants_visited_count: visited,
    total_savings_amount: Math.max(0, Number(totals.total_savings_amount ?? 0)),
  };
}
