/**
 * Refunding a completed order, once: the card charge goes back through the gateway (idempotency key
 * derived from the order, so concurrent refunds are one gateway refund), then one transaction marks the
 * order refunded (guarded by its state), restores gift card value and applied credit, claws back all the
 * credit the order earned (the credit balance may go negative when it was spent) and undoes loyalty.
 */
import { table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { newUuid } from '#shared/db/ids.ts';
import { readItems } from '#shared/db/reads.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF, isTransientDbError, retryTransient } from '#shared/db/transient.ts';
import { conflict, notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { balanceChangeItems, cardAccountKey, creditAccountKey, giftCardAccountKey } from '#shared/domain/ledger.ts';
import { giveBackChargeItems } from '#shared/domain/charge-limits.ts';
import { loyaltyRecordKey, refundEffects } from '#shared/domain/loyalty/order-effects.ts';
import type { MerchantItem } from '#shared/domain/merchants.ts';
import { confirmManager } from '#shared/domain/manager-confirmation.ts';
import { eventCounterKey, merchantAudience, orderResource, recordEvent } from '#shared/domain/events/catalogue.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import { isoSeconds } from '#shared/time.ts';
import { recordOrderRefunded } from '#shared/metrics.ts';
import { getOrder, type OrderRecord } from './record.ts';
import { serializeMerchantOrder } from './views.ts';

const REFUND_FAILED = () => unprocessable('order', 'base', 'The refund was unsuccessful; contact support');
const REFUND_IN_PROGRESS = () => conflict('This refund is being processed by another request; retry shortly.', 1, 'order', 'in_progress');

/** Tries before a refund that keeps losing races on balances or loyalty items answers 409. */
const REFUND_ROUNDS = 5;

export async function refundOrder(input: {
  merchantId: number;
  orderUuid: string;
  managerConfirmation?: string | null;
  respond?: (order: OrderRecord) => TransactItem | undefined;
  /** The platform itself gives the order back (reverseRejectedOrder): no merchant staff, so no manager confirmation. */
  platformReversal?: boolean;
}): Promise<OrderRecord> {
  // The order, the merchant (its manager confirmation), loyalty's record of the order and the order's event
  // counter: one BatchGetItem.
  const [orderItem, merchantItem, loyaltyRecord, eventCounter] = await readItems(
    [keys.order(input.orderUuid), keys.merchant(input.merchantId), loyaltyRecordKey(input.orderUuid), eventCounterKey(orderResource(input.orderUuid))],
    { consistent: true },
  );
  const order = orderItem as OrderRecord | undefined;
  if (!order) throw notFound();
  if (order.merchant_id !== input.merchantId) throw unauthorized('Not authorized to refund orders for this merchant.', 'order', 'merchant_token');
  const merchant = merchantItem as MerchantItem | undefined;
  if (!input.platformReversal) {
    await confirmManager({ expected: merchant?.manager_confirmation, given: input.managerConfirmation, merchantId: input.merchantId, scope: order.uuid, object: 'refund' });
  }
  if (order.state !== 'completed') throw REFUND_FAILED();

  let refundId: string | null = null;
  if (order.charge_id && order.charged_amount > 0) {
    const result = await paymentGateway().refund({ chargeId: order.charge_id, amount: order.charged_amount, idempotencyKey: `order:${order.uuid}:refund` });
    if (!result.ok) throw REFUND_FAILED();
    refundId = result.refundId;
  }

  let refunded: OrderRecord | undefined;
  let batch = new LabelledItems();
  // Marks the order with this request's refund, so a refund whose answer was lost knows it committed.
  const refundToken = newUuid();
  const committedByUs = async () => {
    const current = await retryTransient(() => getOrder(order.uuid));
    return (current as (OrderRecord & { refund_token?: string }) | undefined)?.refund_token === refundToken ? current : undefined;
  };
  let builds = 0;
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
      refunded = { ...order, state: 'refunded', refunded_at: now, refund_id: refundId, credit_reversed_amount: creditReversed };
      const reference = { order_uuid: order.uuid };
      batch = new LabelledItems();
      const add = batch.add;
      add('order', {
        Update: {
          TableName: table(),
          Key: keys.order(order.uuid),
          UpdateExpression: 'SET #state = :refunded, refunded_at = :now, refund_id = :refund, credit_reversed_amount = :reversed, refund_token = :token, updated_at = :now',
          ConditionExpression: '#state = :completed',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':refunded': 'refunded', ':completed': 'completed', ':now': now, ':refund': refundId, ':reversed': creditReversed, ':token': refundToken },
        },
      });
      add('gift_card', ...balanceChangeItems(giftCardAccountKey(order.user_id, order.merchant_id), [
        { kind: 'gift_card_restored', amount: order.gift_card_total_amount, entryId: `order:${order.uuid}:gift_card_restored`, reference },
      ], { now }));
      add('credit', ...balanceChangeItems(creditAccount, [
        { kind: 'credit_restored', amount: order.applied_discount_amount, entryId: `order:${order.uuid}:credit_restored`, reference },
        { kind: 'credit_reversed', amount: -creditReversed, entryId: `order:${order.uuid}:credit_reversed`, reference },
      ], { now, allowNegative: true }));
      add('card', ...balanceChangeItems(cardAccountKey(order.user_id, order.merchant_id), [
        { kind: 'card_refund', amount: -order.charged_amount, entryId: `order:${order.uuid}:card_refund`, reference: { ...reference, refund_id: refundId } },
      ], { now }));
      // The refunded charge's room comes back to the month it was counted in (card charge limits).
      if (order.charge_month) add('charge_limit', ...giveBackChargeItems(order.user_id, order.merchant_id, order.charge_month, order.charged_amount, now));
      add('effects', ...effects.transactItems);
      add('event', ...(await recordEvent('order.refunded', orderResource(order.uuid), merchantAudience(order.merchant_id), serializeMerchantOrder(refunded).order, { counter: first ? (eventCounter ?? null) : undefined })));
      const respond = refunded && input.respond?.(refunded);
      if (respond) add('idempotency', respond);
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
      throw REFUND_FAILED();
    }
    if (failed.has('idempotency')) throw REFUND_IN_PROGRESS();
    // A balance or loyalty item moved under us: read again and retry.
    await backoff(attempt, CONTENTION_BACKOFF);
  }
  // Balances or loyalty items of this customer kept moving: nothing was committed; a retry can win (409, not stored).
  throw REFUND_IN_PROGRESS();
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
