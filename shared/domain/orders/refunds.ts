/**
 * Refunding a completed order, once: the card charge goes back through the gateway (idempotency key
 * derived from the order, so concurrent refunds are one gateway refund), then one transaction marks the
 * order refunded (guarded by its state), restores gift card value and applied credit, claws back all the
 * credit the order earned (the credit balance may go negative when it was spent) and undoes loyalty.
 * Detached refunds count against the same charges (issue 33): what the customer was given as detached
 * refunds never exceeds what their card was charged at the merchant net of refunds, so a refund that would
 * leave some uncovered takes that much detached credit back in its transaction, guarded by both accounts.
 * A repeat of a refund (a POS re-sending after a lost answer) answers the refunded order.
 */
import { atMost, attributeMissing, or, stateIs, versionIs } from '#shared/db/conditions.ts';
import { Balance } from '#shared/domain/money/accounts.ts';
import { keys } from '#shared/db/keys.ts';
import { newUuid } from '#shared/db/ids.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF, isTransientDbError, retryTransient } from '#shared/db/transient.ts';
import { conflict, notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { balanceChangeItems, cardAccountKey, creditAccountKey, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { giveBackChargeItems } from '#shared/domain/money/charge-limits.ts';
import { loyaltyRecordKey, refundEffects } from '#shared/domain/loyalty/order-effects.ts';
import { Merchant } from '#shared/domain/merchants/merchants.ts';
import { confirmManager } from '#shared/domain/merchants/manager-confirmation.ts';
import { auditEntry, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import { eventCounterKey, merchantAudience, orderResource, recordEvent } from '#shared/domain/events/catalogue.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import { isoSeconds } from '#shared/time.ts';
import { recordOrderRefunded } from '#shared/metrics.ts';
import { detachedAccountKey } from './detached-refunds.ts';
import { getOrder, Order, type OrderRecord, type StoredOrder } from './record.ts';
import { serializeMerchantOrder } from './views.ts';

const REFUND_FAILED = () => unprocessable('order', 'base', 'The refund was unsuccessful; contact support');
const REFUND_IN_PROGRESS = () => conflict('This refund is being processed by another request; retry shortly.', 1, 'order', 'in_progress');

/** Tries before a refund that keeps losing races on balances or loyalty items answers 409. */
const REFUND_ROUNDS = 5;

export async function refundOrder(input: {
  merchantId: number;
  orderUuid: string;
  managerConfirmation?: string | null;
  /** The management refund: an owner or manager approves with their own code where the merchant requires codes (confirmManager's `ownCode`). */
  ownManagerCode?: boolean;
  storeResponse?: (order: StoredOrder) => TransactItem | undefined;
  /** The platform itself gives the order back (reverseRejectedOrder): no merchant staff, so no manager confirmation. */
  platformReversal?: boolean;
  /** Who asks, from where: the refund's audit entry (absent for the platform's own reversal). */
  audit?: AuditContext;
  /** The answer for an unknown order and for another merchant's (the management API's one 404); without it, 404 and 401. */
  unknownOrder?: () => Error;
}): Promise<StoredOrder> {
  // The order, the merchant (its manager confirmation), loyalty's record of the order and the order's event
  // counter: one BatchGetItem.
  const [orderItem, merchantItem, loyaltyRecord, eventCounter] = await readItems(
    [keys.order(input.orderUuid), keys.merchant(input.merchantId), loyaltyRecordKey(input.orderUuid), eventCounterKey(orderResource(input.orderUuid))],
    { consistent: true },
  );
  const order = Order.from(orderItem);
  if (input.unknownOrder && order?.merchant_id !== input.merchantId) throw input.unknownOrder();
  if (!order) throw notFound();
  if (order.merchant_id !== input.merchantId) throw unauthorized('Not authorized to refund orders for this merchant.', 'order', 'merchant_token');
  const merchant = Merchant.from(merchantItem);
  const approval = input.platformReversal
    ? { approvedBy: null }
    : await confirmManager({
        expected: merchant?.manager_confirmation,
        staffCodes: merchant?.staff_manager_codes === true,
        actor: input.audit?.actor,
        given: input.managerConfirmation,
        merchantId: input.merchantId,
        scope: order.uuid,
        object: 'refund',
        ownCode: input.ownManagerCode,
      });
  // A repeat of a refund that committed (its answer lost): the refunded order, nothing moves again.
  if (order.state === 'refunded') return order;
  if (order.state !== 'completed') throw REFUND_FAILED();

  let refundId: string | null = null;
  if (order.charge_id && order.charged_amount > 0) {
    const result = await paymentGateway().refund({ chargeId: order.charge_id, amount: order.charged_amount, idempotencyKey: `order:${order.uuid}:refund` });
    if (!result.ok) throw REFUND_FAILED();
    refundId = result.refundId;
  }

  let refunded: StoredOrder | undefined;
  let batch = new LabelledItems();
  // Marks the order with this request's refund, so a refund whose answer was lost knows it committed.
  const refundToken = newUuid();
  const committedByUs = async () => {
    const current = await retryTransient(() => getOrder(order.uuid));
    return current?.refund_token === refundToken ? current : undefined;
  };
  let builds = 0;
  // The customer's card and detached-refund accounts, read only once a round found detached refunds
  // outstanding: until then the transaction just checks there are none (almost every customer).
  let accounts: RefundAccounts | undefined;
  for (let attempt = 1; attempt <= REFUND_ROUNDS; attempt++) {
    const outcome = await transactWrite(async () => {
      const now = isoSeconds();
      const creditAccount = creditAccountKey(order.user_id, order.merchant_id);
      // The first try reuses loyalty's record from the batch read above; a later one reads it afresh.
      const first = builds++ === 0;
      const effects = await refundEffects(order, now, first ? { record: loyaltyRecord } : undefined);
      // Claw-back: all the credit the order earned comes back, even if the user already spent it (the
      // balance then goes negative and later earnings repay it first); loyalty took back paused rewards itself.
      const creditReversed = Math.max(0, order.credit_earned_amount - effects.creditReversedAmount);
      const detached = detachedCover(order, accounts);
      refunded = {
        ...order,
        state: 'refunded',
        refunded_at: now,
        refund_id: refundId,
        credit_reversed_amount: creditReversed,
        detached_refund_reversed_amount: detached.reversed,
        refund_approved_by_staff_id: approval.approvedBy,
      };
      const reference = { order_uuid: order.uuid };
      batch = new LabelledItems();
      const add = batch.add;
      add(
        'order',
        Order.at(order.uuid).update(
          {
            set: {
              state: 'refunded',
              refunded_at: now,
              refund_id: refundId,
              credit_reversed_amount: creditReversed,
              detached_refund_reversed_amount: detached.reversed,
              refund_token: refundToken,
              refund_approved_by_staff_id: approval.approvedBy,
              updated_at: now,
            },
          },
          stateIs('completed'),
        ),
      );
      add(
        'gift_card',
        ...balanceChangeItems(
          giftCardAccountKey(order.user_id, order.merchant_id),
          [{ kind: 'gift_card_restored', amount: order.gift_card_total_amount, entryId: `order:${order.uuid}:gift_card_restored`, reference }],
          { now },
        ),
      );
      add(
        'credit',
        ...balanceChangeItems(
          creditAccount,
          [
            { kind: 'credit_restored', amount: order.applied_discount_amount, entryId: `order:${order.uuid}:credit_restored`, reference },
            { kind: 'credit_reversed', amount: -creditReversed, entryId: `order:${order.uuid}:credit_reversed`, reference },
            // Detached credit the refunded charge no longer covers goes back too (may take the balance into debt, as above).
            { kind: 'detached_refund_reversed', amount: -detached.reversed, entryId: `order:${order.uuid}:detached_refund_reversed`, reference },
          ],
          { now, allowNegative: true },
        ),
      );
      add(
        'card',
        ...balanceChangeItems(
          cardAccountKey(order.user_id, order.merchant_id),
          [
            {
              kind: 'card_refund',
              amount: -order.charged_amount,
              entryId: `order:${order.uuid}:card_refund`,
              reference: { ...reference, refund_id: refundId },
            },
          ],
          { now, expectedVersion: detached.cardVersion },
        ),
      );
      add('detached', ...detached.items(now, order.uuid));
      // The refunded charge's room comes back to the month it was counted in (card charge limits).
      if (order.charge_month) add('charge_limit', ...giveBackChargeItems(order.user_id, order.merchant_id, order.charge_month, order.charged_amount, now));
      add('effects', ...effects.transactItems);
      add(
        'event',
        ...(await recordEvent('order.refunded', orderResource(order.uuid), merchantAudience(order.merchant_id), serializeMerchantOrder(refunded).order, {
          counter: first ? (eventCounter ?? null) : undefined,
        })),
      );
      if (input.audit) {
        const change = { before: { state: order.state }, after: { state: 'refunded', refunded_amount: order.spend_amount + order.tip_amount } };
        add(
          'audit',
          auditEntry(input.audit, {
            merchantId: order.merchant_id,
            action: 'order.refunded',
            object: { type: 'order', id: order.uuid },
            ...change,
            ...approval,
          }),
        );
      }
      const stored = refunded && input.storeResponse?.(refunded);
      if (stored) add('idempotency', stored);
      return batch.items;
    }).catch(async (error: unknown) => {
      if (isTransientDbError(error) && (await committedByUs())) return { committed: true } as const;
      throw error;
    });
    if (outcome.committed) {
      if (!refunded) throw new Error('refund committed without an order');
      recordOrderRefunded(refunded.spend_amount + refunded.tip_amount);
      return refunded;
    }
    const failed = batch.failedLabels(outcome.reasons);
    if (failed.has('order')) {
      // Our own transaction, re-sent after its answer was lost, finds the order refunded by itself.
      if (refunded && (await committedByUs())) {
        recordOrderRefunded(refunded.spend_amount + refunded.tip_amount);
        return refunded;
      }
      // A concurrent repeat of this refund committed first: its refunded order is the answer (one gateway refund, same key).
      const current = await retryTransient(() => getOrder(order.uuid));
      if (current?.state === 'refunded') return current;
      throw REFUND_FAILED();
    }
    if (failed.has('idempotency')) throw REFUND_IN_PROGRESS();
    // The customer has detached refunds outstanding, or the accounts moved since read: read them for the next round.
    if (failed.has('detached') || failed.has('card')) accounts = await readRefundAccounts(order);
    // A balance or loyalty item moved under us: read again and retry.
    await backoff(attempt, CONTENTION_BACKOFF);
  }
  // Balances or loyalty items of this customer kept moving: nothing was committed; a retry can win (409, not stored).
  throw REFUND_IN_PROGRESS();
}

interface RefundAccounts {
  card: StoredItem | undefined;
  detached: StoredItem | undefined;
}

function readRefundAccounts(order: OrderRecord): Promise<RefundAccounts> {
  return retryTransient(async () => {
    const [card, detached] = await readItems(
      [keys.balance(cardAccountKey(order.user_id, order.merchant_id)), keys.balance(detachedAccountKey(order.user_id, order.merchant_id))],
      { consistent: true },
    );
    return { card, detached };
  });
}

/**
 * What the refund does to the customer's detached refunds at the merchant (detached-refunds.ts: together at most
 * the card's net charges there). The refund lowers those charges by its own; the detached credit they would no
 * longer cover is `reversed` (taken from the credit account and the detached total). Every figure is guarded in
 * the refund's transaction: without `accounts` read, that no detached refund is outstanding; with them, that
 * neither account moved since (`cardVersion` on the card's update, the detached account's version in `items`).
 * An order that charged nothing lowers no charges: it has nothing to guard.
 */
/** No detached refund credit is outstanding on the account (absent, or at zero or below). */
const noneOutstanding = or(attributeMissing('balance'), atMost('balance', 0));

function detachedCover(
  order: OrderRecord,
  accounts: RefundAccounts | undefined,
): { reversed: number; cardVersion?: number; items: (now: string, orderUuid: string) => TransactItem[] } {
  if (order.charged_amount <= 0) return { reversed: 0, items: () => [] };
  const detachedKey = detachedAccountKey(order.user_id, order.merchant_id);
  if (!accounts) return { reversed: 0, items: () => [Balance.at(detachedKey).conditionCheck(noneOutstanding)] };
  const outstanding = Number(accounts.detached?.balance ?? 0);
  const chargesLeft = Number(accounts.card?.balance ?? 0) - order.charged_amount;
  const reversed = Math.max(0, Math.min(outstanding, outstanding - chargesLeft));
  const detachedVersion = Number(accounts.detached?.version ?? 0);
  return {
    reversed,
    cardVersion: Number(accounts.card?.version ?? 0),
    items: (now, orderUuid) =>
      reversed > 0
        ? balanceChangeItems(
            detachedKey,
            [
              {
                kind: 'detached_refund_reversed',
                amount: -reversed,
                entryId: `order:${orderUuid}:detached_refund_reversed`,
                reference: { order_uuid: orderUuid },
              },
            ],
            { now, expectedVersion: detachedVersion },
          )
        : [Balance.at(detachedKey).conditionCheck(versionIs(detachedVersion))],
  };
}

/**
 * Gives back an order-ahead order that was charged but then rejected (its ordering provider refused it or
 * never answered): the refund above — the card charge voided through the gateway, gift card value and
 * applied credit restored, earned credit and loyalty reversed, in one transaction — on the platform's own
 * authority. Once: an order already refunded is answered as it is, so a retried workflow step changes nothing.
 */
export async function reverseRejectedOrder(orderUuid: string): Promise<OrderRecord> {
  const order = await getOrder(orderUuid);
  if (!order) throw new Error(`order ${orderUuid} to reverse does not exist`);
  if (order.state === 'refunded') return order;
  try {
    return await refundOrder({ merchantId: order.merchant_id, orderUuid, platformReversal: true });
  } catch (error) {
    // A concurrent reversal (a retried step, the poll's backstop) got there first.
    const current = await getOrder(orderUuid);
    if (current?.state === 'refunded') return current;
    throw error;
  }
}
