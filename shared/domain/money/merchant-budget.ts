/**
 * Bounds on the merchant-funded credit a merchant gives by hand (issue 33 point 2; docs/money.md, "Caps and
 * budgets"): credit grants, detached refunds and progress adjustments. A merchant token that leaks, a rogue or
 * buggy POS, could otherwise mint credit without end (one progress adjustment of 1,000,000 visits was
 * 80,000,000 cents of spendable credit). Two bounds, both in the money transaction:
 *
 * - a cap per operation (`PER_OPERATION_CAP`): `countCreditItem`, the only builder of the budget's counter
 *   update, refuses a larger amount, so no path can count (and so move) more in one request;
 * - a daily budget per merchant (UTC day): one counter item per merchant and day, `ADD issued :amount` guarded
 *   by `issued + amount <= limit`, in the same TransactWriteItems as the credit. Concurrent requests cannot pass
 *   it together: the one whose condition fails re-reads and answers the 422.
 *
 * Rewards earned by orders do not count against the budget: every order of a merchant would then update one
 * item (test/money/contention.test.ts), and an order's rewards are bounded by the order itself (its card
 * spend, the campaign's rules, MAX_ORDER_CREDIT_EARNED per order). Claims are bounded by their campaign
 * (once per user, `max_claims`), which only operators create.
 */
import { counterAllows } from '#shared/db/conditions.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import type { StoredItem } from '#shared/db/reads.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { unprocessable } from '#shared/errors.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';

/** What a merchant gives by hand, each a source of merchant-funded credit with its own per-operation cap. */
export type FundedCreditSource = 'credit_grant' | 'detached_refund' | 'progress_adjustment';

/**
 * Most one operation may give (cents). A grant and an adjustment: one gift card load ($500), as an order's
 * rewards (MAX_ORDER_CREDIT_EARNED). A detached refund stands in for a card refund, so it may reach one
 * order's default charge limit ($1,000; docs/money.md, "Card charge limits"), and stays within what the
 * customer was charged at the merchant (detached-refunds.ts).
 */
export const PER_OPERATION_CAP: Record<FundedCreditSource, number> = {
  credit_grant: 50_000,
  detached_refund: 100_000,
  progress_adjustment: 50_000,
};

/**
 * The daily budget of a merchant that set none: $25,000 a day, fifty operations at the largest cap, thousands
 * of ordinary goodwill gestures. No coffee shop or restaurant gives that much credit by hand in a day; it bounds
 * what a leaked merchant token can mint before someone notices. An operator raises or lowers it per merchant.
 */
export const DEFAULT_DAILY_CREDIT_BUDGET = 2_500_000;
/** The largest budget an operator may set ($10M a day): sums stay far inside the safe integers. */
export const MAX_DAILY_CREDIT_BUDGET = 1_000_000_000;
/** Counters outlive their day by a year (an operator may look back), then DynamoDB TTL deletes them. */
const COUNTER_RETENTION_SECONDS = 400 * 24 * 3600;

/** What a merchant gave by hand on one UTC day: the budget's counter, and the part each source gave. */
export const MerchantCreditDay = defineEntity<{
  issued: number;
  credit_grant_amount?: number;
  detached_refund_amount?: number;
  progress_adjustment_amount?: number;
  merchant_id: number;
  day: string;
  updated_at: string;
  /** Epoch seconds: DynamoDB TTL deletes the counter after COUNTER_RETENTION_SECONDS. */
  ttl: number;
}>()({ entity: 'MerchantCreditDay', key: keys.merchantCreditDay });

/** The counter attribute of each source (ADD names it with the amount). */
const SOURCE_AMOUNT: Record<FundedCreditSource, (amount: number) => { [K in `${FundedCreditSource}_amount`]?: number }> = {
  credit_grant: (amount) => ({ credit_grant_amount: amount }),
  detached_refund: (amount) => ({ detached_refund_amount: amount }),
  progress_adjustment: (amount) => ({ progress_adjustment_amount: amount }),
};

/** The budget that holds for one operation of a merchant: its limit for the day and what it gave so far. */
export interface CreditBudget {
  merchantId: number;
  /** The UTC day (`YYYY-MM-DD`) the counter read belongs to. */
  day: string;
  limit: number;
  issued: number;
}

/** The UTC day of an API datetime (isoSeconds is always UTC). */
export function budgetDay(now: string = isoSeconds()): string {
  return now.slice(0, 10);
}

/**
 * What `creditBudgetFrom` needs read: the merchant (its budget) and the day's counter. Put them in the
 * caller's consistent BatchGetItem; a caller that holds the merchant item already reads only the counter.
 */
export function creditBudgetKeys(merchantId: number, day: string): [Key, Key] {
  return [keys.merchant(merchantId), MerchantCreditDay.key(merchantId, day)];
}

/** The merchant's own daily budget, or the default. */
export function dailyCreditBudget(merchant: StoredItem | object | undefined): number {
  const amount = (merchant as { daily_credit_budget_amount?: unknown } | undefined)?.daily_credit_budget_amount;
  return typeof amount === 'number' ? amount : DEFAULT_DAILY_CREDIT_BUDGET;
}

export function creditBudgetFrom(merchant: StoredItem | object | undefined, counter: StoredItem | undefined, merchantId: number, day: string): CreditBudget {
  return { merchantId, day, limit: dailyCreditBudget(merchant), issued: MerchantCreditDay.from(counter)?.issued ?? 0 };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** 422 `<object>` / `<property>` / over_operation_cap: more than one operation may give. */
export function refuseOverCap(source: FundedCreditSource, amount: number, object: string, property: string): void {
  const cap = PER_OPERATION_CAP[source];
  if (amount > cap) {
    throw unprocessable(object, property, `This would give ${dollars(amount)} of credit; at most ${dollars(cap)} may be given at once.`, 'over_operation_cap');
  }
}

/**
 * Refuses, before anything is written, an operation over its cap (422 on `property`) or over the merchant's
 * daily budget (422 base / over_daily_credit_budget). The message names the merchant's own budget only.
 */
export function refuseOverBudget(budget: CreditBudget, source: FundedCreditSource, amount: number, object: string, property: string): void {
  refuseOverCap(source, amount, object, property);
  if (amount > 0 && budget.issued + amount > budget.limit) {
    throw unprocessable(
      object,
      'base',
      `This would take the merchant past its daily limit of ${dollars(budget.limit)} of credit given by hand (grants, detached refunds, progress adjustments); try again tomorrow or ask support to raise it.`,
      'over_daily_credit_budget',
    );
  }
}

/**
 * Counts `amount` in the day's counter, guarded by the budget: a concurrent operation that used the room first
 * makes this item's condition fail, and the whole transaction with it (re-read, then `refuseOverBudget`
 * answers). Refuses an amount over the source's cap itself, whatever the caller checked. No item for 0.
 */
export function countCreditItems(
  budget: CreditBudget,
  source: FundedCreditSource,
  amount: number,
  now: string,
  refusal: { object: string; property: string },
): TransactItem[] {
  refuseOverCap(source, amount, refusal.object, refusal.property);
  if (amount <= 0) return [];
  return [
    MerchantCreditDay.at(budget.merchantId, budget.day).update(
      {
        add: { issued: amount, ...SOURCE_AMOUNT[source](amount) },
        set: { merchant_id: budget.merchantId, day: budget.day, updated_at: now },
        setIfAbsent: { ttl: epochSeconds(new Date(now)) + COUNTER_RETENTION_SECONDS },
        creates: true,
      },
      // The item exists once anything was given that day; before that, the amount alone must fit.
      counterAllows('issued', budget.limit, amount),
    ),
  ];
}
