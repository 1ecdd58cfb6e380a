/**
 * Merchant-funded credit grants (POST /v15/merchant_funded_credits): a merchant gives a user, named by
 * email, credit usable at the merchant, optionally for a limited time. The credit lands in the user's
 * `credit:<user>:<merchant>` account (ledger entry `credit_granted`), so the next proposed order offers it
 * as `discount_amount`. A grant with a duration is listed on the user's grants item for the merchant; when
 * its time has passed, what is left of it leaves the account as a `credit_expired` movement before any
 * credit is offered or applied (shared/domain/money/credit.ts).
 *
 * One transaction: the grant record, the balance with its entry, the grants list (guarded by its version),
 * the merchant's daily credit budget counter (guarded by the budget; merchant-budget.ts) and the
 * Idempotency-Key record.
 */
import { newUuid } from '#shared/db/ids.ts';
import { readItems } from '#shared/db/reads.ts';
import { LabelledItems, type TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF } from '#shared/db/transient.ts';
import { conflict, unauthorized, unprocessable } from '#shared/errors.ts';
import { CreditGrants, grantsListUpdate, MerchantFundedCreditGrant, type CreditGrantEntry } from '#shared/domain/money/credit.ts';
import { commitKeyedRound } from '#shared/domain/money/idempotency.ts';
import { balanceChangeItems, creditAccountKey } from '#shared/domain/money/ledger.ts';
import { budgetDay, countCreditItems, creditBudgetFrom, creditBudgetKeys, PER_OPERATION_CAP, refuseOverBudget } from '#shared/domain/money/merchant-budget.ts';
import type { MerchantFundedCreditGrantRequest } from '#shared/schemas/pos-money.ts';
import { isoSeconds } from '#shared/time.ts';
import { auditEntry, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import { optionalApproval } from '#shared/domain/merchants/manager-confirmation.ts';
import { recipientOf } from './recipients.ts';

/** Largest grant at once (designed: the same cap as a gift card load; merchant-budget.ts holds every source's cap). */
export const MAX_CREDIT_GRANT = PER_OPERATION_CAP.credit_grant;
/**
 * Expiry when the request names none. The docs disagree (the prose says 1 year, the parameter table 7
 * years); the prose's year is taken: credit that lapses sooner is the safer default for a merchant.
 */
export const DEFAULT_GRANT_SECONDS = 365 * 24 * 3600;
/** Longest duration accepted (the docs' larger default). */
export const MAX_GRANT_SECONDS = 7 * 365 * 24 * 3600;
/** Open expiring grants one user may hold at one merchant (the grants item must stay small). */
export const MAX_OPEN_GRANTS = 100;

const NOT_THIS_MERCHANT = () => unauthorized('Not authorized to give credit for this merchant.', 'merchant_funded_credit', 'merchant_id');
const CONTENDED = () => conflict("This customer's credit is being changed by another request; retry shortly.", 1, 'merchant_funded_credit', 'in_progress');
const ROUNDS = 8;

function validate(merchantId: number, grant: MerchantFundedCreditGrantRequest): number {
  if (grant.merchant_id !== null && grant.merchant_id !== undefined && grant.merchant_id !== merchantId) throw NOT_THIS_MERCHANT();
  if (grant.global) {
    throw unprocessable(
      'merchant_funded_credit',
      'global',
      'Global credit is not offered: credit a merchant gives is usable at that merchant.',
      'not_supported',
    );
  }
  if (grant.value_amount <= 0) throw unprocessable('merchant_funded_credit', 'value_amount', 'Value amount must be positive.', 'not_positive');
  if (grant.value_amount > MAX_CREDIT_GRANT) {
    throw unprocessable(
      'merchant_funded_credit',
      'value_amount',
      `Value amount cannot be more than $${(MAX_CREDIT_GRANT / 100).toFixed(2)} at once.`,
      'too_large',
    );
  }
  const duration = grant.duration_in_seconds ?? DEFAULT_GRANT_SECONDS;
  if (duration <= 0 || duration > MAX_GRANT_SECONDS) {
    throw unprocessable(
      'merchant_funded_credit',
      'duration_in_seconds',
      `Duration must be between 1 second and ${MAX_GRANT_SECONDS} seconds (7 years).`,
      'invalid',
    );
  }
  return duration;
}

/** What a grant gave, as its record says: the management route's answer (the POS route answers 204). */
export interface CreditGrantRecord {
  id: string;
  user_id: number;
  value_amount: number;
  expires_at: string;
  approved_by_staff_id: number | null;
}

export async function grantMerchantFundedCredit(input: {
  merchantId: number;
  grant: MerchantFundedCreditGrantRequest;
  /** The recipient already known (the management route's customer); otherwise the grant's email names them. */
  userId?: number;
  storeResponse?: (record: CreditGrantRecord) => TransactItem | undefined;
  now?: () => Date;
  /** Who asks, from where: the grant's audit entry. */
  audit?: AuditContext;
}): Promise<CreditGrantRecord> {
  const { merchantId, grant } = input;
  const duration = validate(merchantId, grant);
  const approval = await optionalApproval({ merchantId, given: grant.manager_confirmation, actor: input.audit?.actor, operation: 'merchant_funded_credit' });
  const userId = input.userId ?? (await recipientOf('merchant_funded_credit', { email: grant.email }));
  const uuid = newUuid();
  for (let round = 1; round <= ROUNDS; round++) {
    const at = input.now?.() ?? new Date();
    const now = isoSeconds(at);
    const day = budgetDay(now);
    const [grantsRead, merchant, budgetCounter] = await readItems([CreditGrants.key(userId, merchantId), ...creditBudgetKeys(merchantId, day)], {
      consistent: true,
    });
    const grantsItem = CreditGrants.from(grantsRead);
    const budget = creditBudgetFrom(merchant, budgetCounter, merchantId, day);
    refuseOverBudget(budget, 'credit_grant', grant.value_amount, 'merchant_funded_credit', 'value_amount');
    const open = grantsItem?.grants ?? [];
    if (open.length >= MAX_OPEN_GRANTS) {
      throw unprocessable(
        'merchant_funded_credit',
        'base',
        `This customer already holds ${MAX_OPEN_GRANTS} expiring grants from this merchant.`,
        'too_many_grants',
      );
    }
    const entry: CreditGrantEntry = { uuid, amount: grant.value_amount, granted_at: now, expires_at: isoSeconds(new Date(at.getTime() + duration * 1000)) };
    const batch = new LabelledItems();
    batch.add(
      'grant',
      MerchantFundedCreditGrant.at(uuid).putNew({
        uuid,
        merchant_id: merchantId,
        user_id: userId,
        value_amount: grant.value_amount,
        message: grant.message,
        expires_at: entry.expires_at,
        created_at: now,
        approved_by_staff_id: approval.approvedBy,
      }),
    );
    if (input.audit) {
      const after = { user_id: userId, value_amount: grant.value_amount, expires_at: entry.expires_at };
      batch.add(
        'audit',
        auditEntry(input.audit, { merchantId, action: 'credit.granted', object: { type: 'merchant_funded_credit', id: uuid }, after, ...approval }),
      );
    }
    batch.add('grants', grantsListUpdate(userId, merchantId, [...open, entry], grantsItem?.version ?? 0, now));
    batch.add(
      'credit',
      ...balanceChangeItems(
        creditAccountKey(userId, merchantId),
        [{ kind: 'credit_granted', amount: grant.value_amount, entryId: `mfcredit:${uuid}:granted`, reference: { grant_uuid: uuid } }],
        { now },
      ),
    );
    batch.add('budget', ...countCreditItems(budget, 'credit_grant', grant.value_amount, now, { object: 'merchant_funded_credit', property: 'value_amount' }));
    const record = { id: uuid, user_id: userId, value_amount: grant.value_amount, expires_at: entry.expires_at, approved_by_staff_id: approval.approvedBy };
    if ((await commitKeyedRound(batch, 'grant', input.storeResponse?.(record), CONTENDED)).done) return record;
    // The grants list moved (another grant, an expiry), or the budget's room went to another operation: read them again.
    await backoff(round, CONTENTION_BACKOFF);
  }
  throw CONTENDED();
}
