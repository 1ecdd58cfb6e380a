/**
 * Card charge limits (issue 12.7; docs/money.md, "Card charge limits"): what the gateway may charge one user's
 * card, per order and per calendar month (UTC), so a leaked payment code or a rogue POS can take only a bounded
 * amount. Every path that charges a user's card checks them before the charge (a 422, nothing charged) and
 * counts the charge in the SAME transaction that records it, with a conditional ADD on a per-user-per-month
 * counter (`spent + amount <= limit`): concurrent orders can never pass the limit together. A refund gives the
 * amount back to the month the charge was counted in.
 *
 * Where the limits come from (the strictest applicable one holds):
 * - the user-wide limits are the app's the order came through (`charge_limits` on the app item, set with
 *   `npm run admin -- set-charge-limits --app-id`), else DEFAULT_CHARGE_LIMITS; an app may raise or lower them;
 * - a merchant may add its own (`--merchant-id`): a per-order cap and a monthly limit on what one user is
 *   charged at that merchant (its own counter). A merchant only tightens: the user-wide limits still hold.
 */
import { counterAllows } from '#shared/db/conditions.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import type { StoredItem } from '#shared/db/reads.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { unprocessable } from '#shared/errors.ts';
import type { ChargeLimitSettings } from '#shared/domain/identity/apps.ts';

export type { ChargeLimitSettings };
import { epochSeconds, isoSeconds } from '#shared/time.ts';

/**
 * The defaults for an app that set none: $1,000 per order (twice the largest gift card load; no coffee-shop
 * check comes near it) and $10,000 per calendar month.
 */
export const DEFAULT_CHARGE_LIMITS = { per_order_amount: 100_000, monthly_amount: 1_000_000 } as const;
/** The largest limit an operator may set ($10M a month): sums of amounts stay far inside the safe integers. */
export const MAX_CHARGE_LIMIT = 1_000_000_000;
/** Counters outlive their month by a year (refunds of old orders still find them), then DynamoDB TTL deletes them. */
const COUNTER_RETENTION_SECONDS = 400 * 24 * 3600;

/** A month's charge counter: what was charged (cents) in one calendar month. */
interface ChargeMonthAttributes {
  spent: number;
  user_id: number;
  month: string;
  updated_at: string;
  /** Epoch seconds: DynamoDB TTL deletes the counter after COUNTER_RETENTION_SECONDS. */
  ttl: number;
}

/** What a user's card was charged in one calendar month (the user-wide monthly limit's counter). */
export const UserChargeMonth = defineEntity<ChargeMonthAttributes>()({ entity: 'ChargeMonth', key: keys.userChargeMonth });

/** What a user's card was charged in one calendar month at one merchant (that merchant's monthly limit's counter). */
export const MerchantChargeMonth = defineEntity<ChargeMonthAttributes & { merchant_id: number }>()({ entity: 'ChargeMonth', key: keys.merchantChargeMonth });

/** The limits that hold for one charge of a user at a merchant, and what was charged this month so far. */
export interface ChargeLimits {
  /** The calendar month (UTC) the counters read belong to, `YYYY-MM`. */
  month: string;
  perOrder: number;
  monthly: number;
  merchantMonthly: number | null;
  spent: number;
  merchantSpent: number;
}

/** The calendar month (UTC) of an API datetime, `YYYY-MM` (isoSeconds is always UTC). */
export function chargeMonth(now: string = isoSeconds()): string {
  return now.slice(0, 7);
}

/** What `chargeLimitsFrom` needs read (put them in the caller's BatchGetItem): the app, and this month's two counters. */
export function chargeLimitKeys(userId: number, merchantId: number, appId: number, month: string): Key[] {
  return [keys.app(appId), UserChargeMonth.key(userId, month), MerchantChargeMonth.key(userId, merchantId, month)];
}

/** The charge limits an app or merchant item holds (none set: none). */
export function chargeLimitSettingsOf(item: StoredItem | { charge_limits?: unknown } | undefined): ChargeLimitSettings {
  const settings = item?.charge_limits;
  return typeof settings === 'object' && settings !== null ? settings : {};
}

/** The user-wide monthly limit of charges made through an app (what the payment method shows as `monthly_transaction_limit_amount`). */
export function monthlyChargeLimit(app: StoredItem | undefined): number {
  return chargeLimitSettingsOf(app).monthly_amount ?? DEFAULT_CHARGE_LIMITS.monthly_amount;
}

/** The limits from the items `chargeLimitKeys` named (in that order) and the merchant item the caller holds. */
export function chargeLimitsFrom(read: readonly (StoredItem | undefined)[], merchant: object, month: string): ChargeLimits {
  const [app, userMonth, merchantMonth] = read;
  const appLimits = chargeLimitSettingsOf(app);
  const merchantLimits = chargeLimitSettingsOf(merchant);
  const perOrder = appLimits.per_order_amount ?? DEFAULT_CHARGE_LIMITS.per_order_amount;
  return {
    month,
    perOrder: Math.min(perOrder, merchantLimits.per_order_amount ?? perOrder),
    monthly: monthlyChargeLimit(app),
    merchantMonthly: merchantLimits.monthly_amount ?? null,
    spent: UserChargeMonth.from(userMonth)?.spent ?? 0,
    merchantSpent: MerchantChargeMonth.from(merchantMonth)?.spent ?? 0,
  };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const OVER_ORDER_LIMIT = (object: string, amount: number, limit: number) =>
  unprocessable(
    object,
    'base',
    `This would charge ${dollars(amount)} to the customer's card; at most ${dollars(limit)} may be charged per order.`,
    'over_order_charge_limit',
  );
/** The message names the limit, not what the user spent elsewhere this month (a merchant's POS reads it). */
export const OVER_MONTHLY_LIMIT = (object: string) =>
  unprocessable(object, 'base', "This would take the customer's card past its monthly charge limit; collect another tender.", 'over_monthly_charge_limit');

/** Refuses, before anything is charged, a charge the limits do not allow (422 `<object>` / base). */
export function refuseOverLimits(limits: ChargeLimits, amount: number, object: string): void {
  if (amount <= 0) return;
  if (amount > limits.perOrder) throw OVER_ORDER_LIMIT(object, amount, limits.perOrder);
  if (limits.spent + amount > limits.monthly || (limits.merchantMonthly !== null && limits.merchantSpent + amount > limits.merchantMonthly))
    throw OVER_MONTHLY_LIMIT(object);
}

/**
 * The two counters of a month (user-wide, and the user's at the merchant) changed by `amount`, each guarded by
 * its limit when it has one (null: a give-back, or a merchant without a monthly limit).
 */
function counterItems(
  userId: number,
  merchantId: number,
  change: { month: string; amount: number; limit: number | null; merchantLimit: number | null; now: string },
): TransactItem[] {
  const { month, amount, now } = change;
  const counted = {
    add: { spent: amount },
    set: { user_id: userId, month, updated_at: now },
    setIfAbsent: { ttl: epochSeconds(new Date(now)) + COUNTER_RETENTION_SECONDS },
    creates: true,
  };
  // A counter exists once anything was charged this month; before that, the amount alone must fit.
  const guard = (limit: number | null) => (limit === null ? undefined : counterAllows('spent', limit, amount));
  return [
    UserChargeMonth.at(userId, month).update(counted, guard(change.limit)),
    MerchantChargeMonth.at(userId, merchantId, month).update({ ...counted, set: { ...counted.set, merchant_id: merchantId } }, guard(change.merchantLimit)),
  ];
}

/**
 * Counts a charge in the month of `now` (the transaction's time), guarded by the limits: a concurrent charge
 * that used the room first makes this item's condition fail, and the whole transaction with it. No items for 0.
 */
export function countChargeItems(limits: ChargeLimits, userId: number, merchantId: number, amount: number, now: string): TransactItem[] {
  if (amount <= 0) return [];
  return counterItems(userId, merchantId, { month: chargeMonth(now), amount, limit: limits.monthly, merchantLimit: limits.merchantMonthly, now });
}

/** A refund gives the amount back to the month the charge was counted in (no condition: giving back cannot pass a limit). */
export function giveBackChargeItems(userId: number, merchantId: number, month: string, amount: number, now: string): TransactItem[] {
  if (amount <= 0) return [];
  return counterItems(userId, merchantId, { month, amount: -amount, limit: null, merchantLimit: null, now });
}
