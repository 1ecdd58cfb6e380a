/**
 * Money commands of `npm run admin` (registered in scripts/admin.ts):
 * - audit: recomputes every balance from the ledger; prints the report, exits 1 on any mismatch.
 * - ledger-migrate: gives every ledger entry written before the ledger was double-entry its other leg (idempotent).
 * - set-charge-limits: an app's or a merchant's card charge limits.
 * - set-credit-budget: a merchant's daily budget of credit given by hand (grants, detached refunds, adjustments).
 * - gifts-return-unclaimed: gives held gifts nobody claimed in time back to their buyers' cards (run daily).
 */
import { CommandError, UsageError, integerOption, optionsOf, stringOption, withPlainErrors, type AdminCommand } from './options.ts';
import { returnUnclaimedGifts, UNCLAIMED_GIFT_DAYS } from '#shared/domain/money/held-gifts.ts';
import { auditLedger, migrateLedger } from '#shared/domain/money/ledger.ts';
import { DEFAULT_CHARGE_LIMITS, MAX_CHARGE_LIMIT } from '#shared/domain/money/charge-limits.ts';
import { DEFAULT_DAILY_CREDIT_BUDGET, MAX_DAILY_CREDIT_BUDGET } from '#shared/domain/money/merchant-budget.ts';
import { ChargeLimitTargetMissing, CreditBudgetMerchantMissing, setChargeLimits, setDailyCreditBudget } from './money-settings.ts';

export const auditCommand: AdminCommand = {
  summary:
    'Recompute every balance (gift card value, credit, card charges) from the ledger and check every transfer balances and came from its source; exit 1 on a mismatch.',
  async run() {
    const report = await auditLedger();
    if (report.mismatches.length > 0) {
      console.log(JSON.stringify(report, null, 2));
      throw new CommandError(`${report.mismatches.length} balance(s) or transfer(s) do not match the ledger (see the report above)`);
    }
    return report;
  },
};

export const ledgerMigrateCommand: AdminCommand = {
  summary: 'Give every ledger entry written before the ledger was double-entry its transfer and other leg (run twice = no change).',
  async run() {
    const report = await migrateLedger();
    const failed = report.skipped.filter((skip) => !skip.reason.startsWith('already migrated'));
    if (failed.length > 0) {
      console.log(JSON.stringify(report, null, 2));
      throw new CommandError(`${failed.length} entry(ies) could not be migrated (see the report above)`);
    }
    return report;
  },
};

/**
 * set-charge-limits: the card charge limits of an app (replacing the defaults for charges through it) or of a
 * merchant (its own, on top of the user-wide ones); docs/money.md, "Card charge limits".
 */
export const setChargeLimitsCommand: AdminCommand = {
  summary: "Set an app's or a merchant's card charge limits per order and per calendar month (cents); --clear goes back to the defaults.",
  usage: `(--app-id <id> | --merchant-id <id>) [--per-order-amount <cents>] [--monthly-amount <cents>] [--clear]\n        (defaults: ${DEFAULT_CHARGE_LIMITS.per_order_amount} per order, ${DEFAULT_CHARGE_LIMITS.monthly_amount} a month; at most ${MAX_CHARGE_LIMIT})`,
  options: optionsOf(['app-id', 'merchant-id', 'per-order-amount', 'monthly-amount'], ['clear']),
  async run(values) {
    const appId = integerOption(values, 'app-id');
    const merchantId = integerOption(values, 'merchant-id');
    if ((appId === undefined) === (merchantId === undefined)) throw new UsageError('Give exactly one of --app-id and --merchant-id');
    const perOrder = integerOption(values, 'per-order-amount');
    const monthly = integerOption(values, 'monthly-amount');
    const clear = values.clear === true;
    if (clear === (perOrder !== undefined || monthly !== undefined)) throw new UsageError('Give --per-order-amount and/or --monthly-amount, or --clear alone');
    for (const [name, amount] of [
      ['per-order-amount', perOrder],
      ['monthly-amount', monthly],
    ] as const) {
      if (amount !== undefined && amount > MAX_CHARGE_LIMIT) throw new UsageError(`--${name} is at most ${MAX_CHARGE_LIMIT} cents`);
    }
    const target = appId !== undefined ? { appId } : { merchantId: merchantId! };
    const limits = await withPlainErrors(ChargeLimitTargetMissing, () =>
      setChargeLimits(target, clear ? null : { per_order_amount: perOrder, monthly_amount: monthly }),
    );
    return {
      ...(appId !== undefined ? { app_id: appId } : { merchant_id: merchantId }),
      charge_limits: limits,
      defaults: appId !== undefined ? DEFAULT_CHARGE_LIMITS : null,
    };
  },
};

/**
 * set-credit-budget: how much merchant-funded credit a merchant may give by hand per UTC day (credit grants,
 * detached refunds, progress adjustments); docs/money.md, "Caps and budgets". 0 turns those off.
 */
export const setCreditBudgetCommand: AdminCommand = {
  summary:
    "Set a merchant's daily budget (cents, UTC day) of credit given by hand: grants, detached refunds, progress adjustments; --clear goes back to the default.",
  usage: `--merchant-id <id> (--daily-amount <cents> | --clear)\n        (default: ${DEFAULT_DAILY_CREDIT_BUDGET} a day; 0 to ${MAX_DAILY_CREDIT_BUDGET})`,
  options: optionsOf(['merchant-id', 'daily-amount'], ['clear']),
  async run(values) {
    const merchantId = integerOption(values, 'merchant-id', true);
    const clear = values.clear === true;
    const given = values['daily-amount'];
    if (clear === (given !== undefined)) throw new UsageError('Give --daily-amount or --clear');
    let amount: number | null = null;
    if (!clear) {
      amount = Number(given);
      if (!/^\d+$/.test(String(given)) || amount > MAX_DAILY_CREDIT_BUDGET)
        throw new UsageError(`--daily-amount is a whole number of cents from 0 to ${MAX_DAILY_CREDIT_BUDGET}`);
    }
    const budget = await withPlainErrors(CreditBudgetMerchantMissing, () => setDailyCreditBudget(merchantId, amount));
    return { merchant_id: merchantId, daily_credit_budget_amount: budget, default: clear };
  },
};

/**
 * gifts-return-unclaimed: the daily run that gives a held gift (a gift card order for an email with no account)
 * back to its buyer's card once UNCLAIMED_GIFT_DAYS have passed; docs/money.md, "Held gifts". Idempotent: a
 * gift goes back once, and a run that stopped halfway is finished by the next.
 */
export const giftsReturnUnclaimedCommand: AdminCommand = {
  summary: `Refund to the buyer's card every held gift unclaimed for ${UNCLAIMED_GIFT_DAYS} days (run daily; exit 1 if a card refund failed: the next run retries it).`,
  usage: '[--as-of <ISO 8601 time>]   (default: now)',
  options: optionsOf(['as-of']),
  async run(values) {
    const asOf = stringOption(values, 'as-of');
    const now = asOf === undefined ? new Date() : new Date(asOf);
    if (Number.isNaN(now.getTime())) throw new UsageError('--as-of must be an ISO 8601 time');
    const report = await returnUnclaimedGifts(now);
    if (report.refundPending.length > 0) {
      console.log(JSON.stringify(report, null, 2));
      throw new CommandError(`${report.refundPending.length} card refund(s) failed; the next run retries them`);
    }
    return report;
  },
};
