/**
 * The operators' money settings (scripts/admin/money.ts's set-charge-limits and set-credit-budget): written
 * here, read by the money path (shared/domain/money/charge-limits.ts, merchant-budget.ts) with every charge or
 * credit. Only the admin CLI (and tests and the bench's seed) sets them, so a handler's bundle carries none of
 * what the setters need (the App and Merchant definitions).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure } from '#shared/db/client.ts';
import { itemExists } from '#shared/db/conditions.ts';
import { AppEntity, type ChargeLimitSettings } from '#shared/domain/identity/apps.ts';
import { Merchant } from '#shared/domain/merchants/merchants.ts';
import { chargeLimitSettingsOf, MAX_CHARGE_LIMIT } from '#shared/domain/money/charge-limits.ts';
import { DEFAULT_DAILY_CREDIT_BUDGET, MAX_DAILY_CREDIT_BUDGET } from '#shared/domain/money/merchant-budget.ts';
import { isoSeconds } from '#shared/time.ts';

/** Thrown by setDailyCreditBudget for a merchant that does not exist. */
export class CreditBudgetMerchantMissing extends Error {
  override readonly name = 'CreditBudgetMerchantMissing';
}

/**
 * Sets (or with `null`, clears back to the default) a merchant's daily budget (the admin CLI's
 * `set-credit-budget`). Holds from the next operation (read with it, never cached).
 */
export async function setDailyCreditBudget(merchantId: number, amount: number | null): Promise<number> {
  if (amount !== null && (!Number.isSafeInteger(amount) || amount < 0 || amount > MAX_DAILY_CREDIT_BUDGET)) {
    throw new RangeError(`A daily credit budget is a whole number of cents from 0 to ${MAX_DAILY_CREDIT_BUDGET}, not ${amount}`);
  }
  const now = isoSeconds();
  try {
    await db().send(
      new UpdateCommand(
        Merchant.at(merchantId).update(
          amount === null
            ? { remove: ['daily_credit_budget_amount'], set: { updated_at: now } }
            : { set: { daily_credit_budget_amount: amount, updated_at: now } },
          itemExists,
        ).Update,
      ),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new CreditBudgetMerchantMissing(`Merchant ${merchantId} does not exist`);
    throw error;
  }
  return amount ?? DEFAULT_DAILY_CREDIT_BUDGET;
}

/** Thrown by setChargeLimits for an app or merchant that does not exist. */
export class ChargeLimitTargetMissing extends Error {
  override readonly name = 'ChargeLimitTargetMissing';
}

/**
 * Sets (or with `null`, clears) the charge limits of an app or a merchant (the admin CLI's `set-charge-limits`).
 * Given amounts replace the stored ones; the others stay. Takes effect from the next charge (read with it).
 */
export async function setChargeLimits(target: { appId: number } | { merchantId: number }, settings: ChargeLimitSettings | null): Promise<ChargeLimitSettings> {
  for (const amount of [settings?.per_order_amount, settings?.monthly_amount]) {
    if (amount !== undefined && amount !== null && (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_CHARGE_LIMIT)) {
      throw new RangeError(`A charge limit is a whole number of cents from 1 to ${MAX_CHARGE_LIMIT}, not ${amount}`);
    }
  }
  const item = 'appId' in target ? AppEntity.at(target.appId) : Merchant.at(target.merchantId);
  const current = await item.get({ consistent: true });
  const merged =
    settings === null
      ? {}
      : { ...chargeLimitSettingsOf(current), ...Object.fromEntries(Object.entries(settings).filter(([, amount]) => amount !== undefined)) };
  try {
    await db().send(new UpdateCommand(item.update({ set: { charge_limits: merged, updated_at: isoSeconds() } }, itemExists).Update));
  } catch (error) {
    if (isConditionFailure(error))
      throw new ChargeLimitTargetMissing(`${'appId' in target ? `App ${target.appId}` : `Merchant ${target.merchantId}`} does not exist`);
    throw error;
  }
  return merged;
}
