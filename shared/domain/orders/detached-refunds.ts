/**
 * Detached refunds (POST /v15/detached_refunds): a merchant gives a customer merchant-funded credit not
 * tied to an order (a POS that cannot void a payment, a partial refund after day close). Guarded like an
 * order refund (manager confirmation) and bounded by what the customer paid the merchant:
 *
 * - never transacted (nothing ever charged to the customer's card by the merchant) -> 422 base;
 * - every detached refund of the customer at the merchant together stays within the net amount charged
 *   (`card:<user>:<merchant>`: charges minus refunds) -> 422 credit_amount beyond it. The running total is a
 *   ledger account of its own (`detached:<user>:<merchant>`), so the audit checks it like any balance.
 *
 * - one refund gives at most PER_OPERATION_CAP.detached_refund ($1,000) -> 422 credit_amount, and counts
 *   against the merchant's daily credit budget -> 422 base (merchant-budget.ts; docs/money.md, "Caps and budgets").
 *
 * One conditional transaction: the refund record, the credit (ledger entry `detached_refund` on
 * `credit:<user>:<merchant>`), the running total guarded by its version, a ConditionCheck that the card
 * account did not change since it was read, the budget's counter (guarded by the budget) and the
 * Idempotency-Key record. Exactly once per
 * Idempotency-Key; a repeated identifier_from_merchant (which the docs say catches duplicates) answers the
 * first refund again.
 */
import { defineEntity } from '#shared/db/entity.ts';
import { newUuid } from '#shared/db/ids.ts';
import { equals } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import { Balance } from '#shared/domain/money/accounts.ts';
import { commitKeyedRound, type FirstAnswer } from '#shared/domain/money/idempotency.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { LabelledItems, type TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF } from '#shared/db/transient.ts';
import { conflict, notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { balanceChangeItems, cardAccountKey, creditAccountKey } from '#shared/domain/money/ledger.ts';
import { confirmManager } from '#shared/domain/merchants/manager-confirmation.ts';
import { auditEntry, type MerchantOperation } from '#shared/domain/audit/audit-log.ts';
import { budgetDay, countCreditItems, creditBudgetFrom, refuseOverBudget, refuseOverCap } from '#shared/domain/money/merchant-budget.ts';
import { displayName } from './record.ts';
import type { DetachedRefundRequest } from '#shared/schemas/pos-money.ts';
import type { detachedRefundResponse } from '#shared/schemas/responses/pos-money.ts';
import type * as z from '#shared/schemas/zod.ts';
import { isoSeconds } from '#shared/time.ts';
import { customerFrom, customerKeys } from '#shared/domain/pos/customer.ts';

/** One detached refund as stored (`keys.detachedRefund(uuid)`): the answer's fields, and whose it is. */
const DetachedRefund = defineEntity<
  DetachedRefundResponse['detached_refund'] & { uuid: string; merchant_id: number; user_id: number; created_at: string; approved_by_staff_id?: number | null }
>()({
  entity: 'DetachedRefund',
  key: keys.detachedRefund,
});

/** A merchant's identifier_from_merchant taken by a detached refund (`keys.detachedRefundIdentifier`): a repeat answers `response_json`. */
const DetachedRefundIdentifier = defineEntity<{ refund_uuid: string } & FirstAnswer>()({
  entity: 'DetachedRefundIdentifier',
  key: keys.detachedRefundIdentifier,
});

export type DetachedRefundResponse = z.output<typeof detachedRefundResponse>;

/** The running total of a customer's detached refunds at a merchant (a ledger account, so the audit sums it). */
export function detachedAccountKey(userId: number, merchantId: number): string {
  return `detached:${userId}:${merchantId}`;
}

const NOT_THIS_MERCHANTS_LOCATION = () => unauthorized('Not authorized to refund at this location.', 'detached_refund', 'merchant_token');
const NOT_POSITIVE = () => unprocessable('detached_refund', 'credit_amount', 'Credit amount must be positive.', 'not_positive');
const CONTENDED = () => conflict("This customer's balance is being changed by another request; retry shortly.", 1, 'detached_refund', 'in_progress');

const ROUNDS = 8;
const BUDGET_REFUSAL = { object: 'detached_refund', property: 'credit_amount' } as const;

export async function createDetachedRefund(
  input: MerchantOperation<DetachedRefundResponse> & { refund: DetachedRefundRequest },
): Promise<DetachedRefundResponse> {
  const { merchantId, refund } = input;
  const customer = { paymentTokenData: refund.payment_token_data };
  const identifier = refund.identifier_from_merchant;
  // Location, merchant (name, confirmation code), QR code and an earlier refund with this identifier: one BatchGetItem.
  const [location, merchant, ...rest] = await readItems(
    [
      keys.location(refund.location_id),
      keys.merchant(merchantId),
      ...customerKeys(customer),
      ...(identifier ? [keys.detachedRefundIdentifier(merchantId, identifier)] : []),
    ],
    { consistent: true },
  );
  const customerItems = rest.slice(0, customerKeys(customer).length);
  const previous = identifier ? DetachedRefundIdentifier.from(rest[customerItems.length]) : undefined;
  if (location?.merchant_id !== merchantId || !merchant) throw NOT_THIS_MERCHANTS_LOCATION();
  // The order refund's check (counted per merchant and per location, locked after too many wrong codes).
  const approval = await confirmManager({
    expected: merchant.manager_confirmation as string | null | undefined,
    staffCodes: merchant.staff_manager_codes === true,
    actor: input.audit?.actor,
    given: refund.manager_confirmation,
    merchantId,
    scope: `detached:${refund.location_id}`,
    object: 'detached_refund',
  });
  if (previous) return JSON.parse(previous.response_json) as DetachedRefundResponse;
  if (refund.credit_amount <= 0) throw NOT_POSITIVE();
  refuseOverCap('detached_refund', refund.credit_amount, BUDGET_REFUSAL.object, BUDGET_REFUSAL.property);
  const userId = customerFrom(customer, customerItems);
  if (userId === undefined) throw notFound();

  const uuid = newUuid();
  for (let round = 1; round <= ROUNDS; round++) {
    const now = isoSeconds();
    const day = budgetDay(now);
    const [card, total, user, budgetCounter] = await readItems(
      [
        keys.balance(cardAccountKey(userId, merchantId)),
        keys.balance(detachedAccountKey(userId, merchantId)),
        keys.user(userId),
        keys.merchantCreditDay(merchantId, day),
      ],
      { consistent: true },
    );
    const name = displayName(user);
    const merchantName = typeof merchant.name === 'string' ? merchant.name : 'this merchant';
    if (Number(card?.version ?? 0) === 0) {
      throw unprocessable('detached_refund', 'base', `You can't refund ${name} because they've never transacted at ${merchantName}.`);
    }
    const spent = Math.max(0, Number(card?.balance ?? 0));
    const alreadyRefunded = Number(total?.balance ?? 0);
    if (alreadyRefunded + refund.credit_amount > spent) {
      throw unprocessable('detached_refund', 'credit_amount', `Credit amount cannot be more than ${name} has ever spent at ${merchantName}.`, 'exceeds_spend');
    }
    // The merchant item was read (consistently) with the location: its budget holds for this request.
    const budget = creditBudgetFrom(merchant, budgetCounter, merchantId, day);
    refuseOverBudget(budget, 'detached_refund', refund.credit_amount, BUDGET_REFUSAL.object, BUDGET_REFUSAL.property);
    const response: DetachedRefundResponse = {
      detached_refund: {
        cashier: refund.cashier,
        credit_amount: refund.credit_amount,
        customer_facing_reason: refund.customer_facing_reason,
        identifier_from_merchant: identifier,
        internal_reason: refund.internal_reason,
        location_id: refund.location_id,
        loyalty_id: userId,
        refunded_at: now,
        register: refund.register,
      },
    };
    const batch = new LabelledItems();
    if (identifier) {
      batch.add(
        'identifier',
        DetachedRefundIdentifier.at(merchantId, identifier).putNew({ refund_uuid: uuid, response_json: JSON.stringify(response), created_at: now }),
      );
    }
    batch.add(
      'refund',
      DetachedRefund.at(uuid).putNew({
        uuid,
        merchant_id: merchantId,
        user_id: userId,
        ...response.detached_refund,
        created_at: now,
        approved_by_staff_id: approval.approvedBy,
      }),
    );
    if (input.audit) {
      const entry = { merchantId, action: 'detached_refund.created', object: { type: 'detached_refund', id: uuid }, after: response.detached_refund } as const;
      batch.add('audit', auditEntry(input.audit, { ...entry, ...approval }));
    }
    batch.add('card', cardUnchanged(userId, merchantId, card));
    batch.add(
      'total',
      ...balanceChangeItems(
        detachedAccountKey(userId, merchantId),
        [{ kind: 'detached_refund', amount: refund.credit_amount, entryId: `detached:${uuid}`, reference: { detached_refund_uuid: uuid } }],
        { expectedVersion: Number(total?.version ?? 0), now },
      ),
    );
    batch.add(
      'credit',
      ...balanceChangeItems(
        creditAccountKey(userId, merchantId),
        [{ kind: 'detached_refund', amount: refund.credit_amount, entryId: `detached:${uuid}`, reference: { detached_refund_uuid: uuid } }],
        { now },
      ),
    );
    batch.add('budget', ...countCreditItems(budget, 'detached_refund', refund.credit_amount, now, BUDGET_REFUSAL));
    const commit = await commitKeyedRound(batch, 'refund', input.storeResponse?.(response), CONTENDED);
    if (commit.done) return response;
    if (identifier && commit.failed.has('identifier')) {
      const winner = await DetachedRefundIdentifier.at(merchantId, identifier).get({ consistent: true });
      if (winner) return JSON.parse(winner.response_json) as DetachedRefundResponse;
    }
    // The card account or the running total moved (an order, another refund), or the budget's room went to
    // another operation: read them again.
    await backoff(round, CONTENTION_BACKOFF);
  }
  throw CONTENDED();
}

/** The card account as read: a charge or refund since then makes the bound stale, so the transaction must fail. */
function cardUnchanged(userId: number, merchantId: number, card: StoredItem | undefined): TransactItem {
  // `equals`, not versionIs: the card account was charged, so it exists (an absent one must fail the check).
  return Balance.at(cardAccountKey(userId, merchantId)).conditionCheck(equals('version', Number(card?.version ?? 0)));
}
