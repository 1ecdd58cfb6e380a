/**
 * The money path of every order: settlement (in-store completion and order-ahead completion) and refund.
 *
 * Settlement saga (docs/money.md):
 *  1. Claim the source (proposed order / order-ahead order): a conditional update that takes a short
 *     lease while the source is still in `fromState`. Only the lease holder may charge; a concurrent
 *     completion gets 409 (lease held) or 422 (already completed).
 *  2. Read balances (gift card value, merchant-funded credit) and the promoted card; work out the split.
 *  3. Charge the card through the gateway with an idempotency key derived from the source uuid and the
 *     claim's attempt number — a retry after a crash (lease expired, same attempt) is the same charge.
 *  4. Commit ONE TransactWriteItems: the source's state transition guarded by our lease, the order, every
 *     balance change with its ledger entry, loyalty's effects, and the Idempotency-Key COMPLETED record.
 *  5. If that transaction is cancelled by a condition, release the claim with the attempt number raised,
 *     then refund (void) the charge through the gateway, so the next try is a new charge and no try can
 *     commit a voided one. A commit whose answer was lost is recognised by its order uuid and answered.
 * Crash between 3 and 4: nothing is committed, the lease expires, a retry repeats the same charge
 * (same key) and commits it. Gateway void failing in 5: logged as `charge_void_failed` for reconciliation.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { backoff, CONTENTION_BACKOFF, isTransientDbError, retryTransient } from '#shared/db/transient.ts';
import { newUuid } from '#shared/db/ids.ts';
import { readItems } from '#shared/db/reads.ts';
import { LabelledItems, putNew, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import { ApiError, conflict, notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { cardAccountKey, creditAccountKey, getBalance, giftCardAccountKey, balanceChangeItems, type Movement } from '#shared/domain/ledger.ts';
import { MAX_ORDER_EFFECT_ITEMS, orderEffects, type OrderItemInput } from '#shared/domain/order-effects.ts';
import '#shared/domain/order-effects-registry.ts';
import { getCreditCard, type CreditCardItem } from '#shared/domain/credit-cards.ts';
import type { LocationItem } from '#shared/domain/locations.ts';
import type { MerchantItem } from '#shared/domain/merchants.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import { log } from '#shared/log.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';

/** How long a settlement holds its source; a crashed settlement frees it after this. */
export const SETTLEMENT_LEASE_SECONDS = 30;

export interface SettlementSource {
  /** The item whose state transition guards the settlement (proposed order, order-ahead order). */
  key: Key;
  /** Attribute holding its state (default `state`). */
  stateAttribute?: string;
  fromState: string;
  toState: string;
  /** Its uuid: gateway idempotency keys derive from it. */
  uuid: string;
}

export interface SettleOrderInput {
  source: 'in_store' | 'order_ahead';
  settlement: SettlementSource;
  merchantId: number;
  locationId: number;
  userId: number;
  appId: number;
  /** uuid of the completed order (default: a new one, as in-store completion requires). */
  completedOrderUuid?: string;
  /** Requested spend, excluding tip, including the applied discount (contract rule 1). */
  spendAmount: number;
  taxAmount: number;
  tipAmount: number;
  /** Merchant-funded credit to apply; may not exceed what the user has at the merchant. */
  appliedDiscountAmount: number;
  exemptionAmount: number;
  partialAuthorizationAllowed: boolean;
  /** Apply only the merchant-funded discount: no gift card value, no card charge (rule 5). */
  discountOnly: boolean;
  items: OrderItemInput[];
  identifierFromMerchant?: string | null;
  cashier?: string | null;
  register?: string | null;
  receiptMessageHtml?: string | null;
  fees?: unknown[];
  /** Extra guarded writes of the source committed with the money (e.g. order-ahead bookkeeping). */
  guard?: TransactItem[];
  /** Builds the Idempotency-Key COMPLETED record from the order, to commit in the same transaction. */
  respond?: (order: OrderRecord) => TransactItem | undefined;
  /**
   * What the caller already read and checked (in-store completion batches them with the proposed order):
   * the location (the merchant's own), the merchant, and the promoted card when the order was proposed.
   */
  prefetched?: { location: LocationItem; merchant: MerchantItem; promotedCardId: number | null };
}

/** A completed order as stored (`keys.order(uuid)`, gsi1 = the user's orders by created_at). */
export interface OrderRecord {
  uuid: string;
  source: 'in_store' | 'order_ahead';
  source_uuid: string;
  state: 'completed' | 'refunded';
  merchant_id: number;
  merchant_name: string;
  location_id: number;
  location_name: string | null;
  location_street_address: string;
  location_extended_address: string | null;
  location_locality: string;
  location_region: string;
  location_postal_code: string;
  location_latitude: number | null;
  location_longitude: number | null;
  user_id: number;
  app_id: number;
  user_display_name: string;
  requested_spend_amount: number;
  requested_tip_amount: number;
  /** Approved spend excluding tip (discount + gift card + card). */
  spend_amount: number;
  /** Approved tip (gift card + card). */
  tip_amount: number;
  tax_amount: number;
  exemption_amount: number;
  applied_discount_amount: number;
  gift_card_total_amount: number;
  gift_card_tip_amount: number;
  /** Charged to the card (balance_amount). */
  charged_amount: number;
  charge_id: string | null;
  credit_earned_amount: number;
  credit_reversed_amount: number;
  items: OrderItemInput[];
  fees: unknown[];
  identifier_from_merchant: string | null;
  cashier: string | null;
  register: string | null;
  receipt_message_html: string | null;
  discount_only: boolean;
  partial_authorization_allowed: boolean;
  created_at: string;
  transacted_at: string;
  refunded_at: string | null;
  refund_id: string | null;
}

export interface Split {
  approvedSpend: number;
  approvedTip: number;
  appliedDiscount: number;
  giftCardSpend: number;
  giftCardTip: number;
  charged: number;
}

const DECLINED = () => unprocessable('order', 'base', 'Sorry. We cannot charge the credit card at this time.');
const INSUFFICIENT_FUNDS = () =>
  unprocessable('order', 'base', 'The card has insufficient funds for this order; allow partial authorization or collect another tender.', 'insufficient_funds');
const NO_PAYMENT_METHOD = () =>
  unprocessable('order', 'base', 'This customer has no payment method; allow partial authorization to apply loyalty only.', 'no_payment_method');
const ALREADY_COMPLETED = () => unprocessable('order', 'base', 'This order has already been completed.', 'already_completed');
const NOT_COMPLETABLE = () => unprocessable('order', 'base', 'This order cannot be completed.', 'not_completable');
const BALANCE_CHANGED = () => unprocessable('order', 'base', "The customer's balance changed while completing this order; retry it.", 'balance_changed');
const IN_PROGRESS = (retryAfter: number) => conflict('This order is being completed by another request; retry shortly.', retryAfter, 'order', 'in_progress');

/** "First L." as merchants see a customer. */
export function displayName(user: { first_name?: string; last_name?: string } | undefined): string {
  const first = user?.first_name?.trim() ?? '';
  const initial = user?.last_name?.trim().charAt(0) ?? '';
  return initial ? `${first} ${initial.toUpperCase()}.` : first;
}

/** Credit the user can apply to a spend at the merchant: min(available credit, spend minus exemption). */
export function availableDiscount(creditBalance: number, spendAmount: number, exemptionAmount: number): number {
  return Math.max(0, Math.min(creditBalance, spendAmount - exemptionAmount));
}

interface Claim {
  leaseToken: string;
  attempt: number;
}

async function claimSource(source: SettlementSource): Promise<Claim> {
  const stateAttribute = source.stateAttribute ?? 'state';
  const leaseToken = newUuid();
  const now = epochSeconds();
  try {
    // Re-sent when its answer is lost; the lease token tells our own earlier success (below) from a rival.
    const result = await retryTransient(() => db().send(
      new UpdateCommand({
        TableName: table(),
        Key: source.key,
        UpdateExpression: 'SET settlement_lease_token = :token, settlement_lease_until = :until, settlement_attempt = if_not_exists(settlement_attempt, :zero)',
        ConditionExpression: '#state = :from AND (attribute_not_exists(settlement_lease_until) OR settlement_lease_until < :now)',
        ExpressionAttributeNames: { '#state': stateAttribute },
        ExpressionAttributeValues: { ':token': leaseToken, ':until': now + SETTLEMENT_LEASE_SECONDS, ':zero': 0, ':from': source.fromState, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    ));
    return { leaseToken, attempt: Number(result.Attributes?.settlement_attempt ?? 0) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = (await retryTransient(() => db().send(new GetCommand({ TableName: table(), Key: source.key, ConsistentRead: true })))).Item;
    if (!current) throw NOT_COMPLETABLE();
    if (current.settlement_lease_token === leaseToken && current[stateAttribute] === source.fromState) return { leaseToken, attempt: Number(current.settlement_attempt ?? 0) };
    if (current[stateAttribute] === source.toState) throw ALREADY_COMPLETED();
    if (current[stateAttribute] === source.fromState) throw IN_PROGRESS(Math.max(1, Math.min(5, Number(current.settlement_lease_until ?? now) - now)));
    throw NOT_COMPLETABLE();
  }
}

/**
 * Gives the source back after a failed try; `charged` raises the attempt so the next try is a new charge.
 * True when this claim released it; false when the lease had passed to another settlement (which then
 * holds the same attempt, hence the same charge). `settlement_released_lease` lets a re-sent release whose
 * first answer was lost recognise that it already happened.
 */
async function releaseSource(source: SettlementSource, claim: Claim, charged: boolean): Promise<boolean> {
  try {
    await retryTransient(() => db().send(
      new UpdateCommand({
        TableName: table(),
        Key: source.key,
        UpdateExpression: 'REMOVE settlement_lease_token, settlement_lease_until SET settlement_attempt = :attempt, settlement_released_lease = :token',
        ConditionExpression: 'settlement_lease_token = :token OR settlement_released_lease = :token',
        ExpressionAttributeValues: { ':token': claim.leaseToken, ':attempt': claim.attempt + (charged ? 1 : 0) },
      }),
    ));
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

/**
 * Splits a spend (rules 1 to 5): the applied discount first, then gift card value at the merchant (spend,
 * then tip), then the card. `cardApproved` is what the gateway approved (undefined before charging).
 */
export function splitPayment(input: { spend: number; tip: number; appliedDiscount: number; giftCardValue: number; discountOnly: boolean }): Split {
  if (input.discountOnly) {
    return { approvedSpend: input.appliedDiscount, approvedTip: 0, appliedDiscount: input.appliedDiscount, giftCardSpend: 0, giftCardTip: 0, charged: 0 };
  }
  const due = input.spend - input.appliedDiscount;
  const giftCardSpend = Math.min(input.giftCardValue, due);
  const giftCardTip = Math.min(input.giftCardValue - giftCardSpend, input.tip);
  const charged = due - giftCardSpend + (input.tip - giftCardTip);
  return { approvedSpend: input.spend, approvedTip: input.tip, appliedDiscount: input.appliedDiscount, giftCardSpend, giftCardTip, charged };
}

/** Reduces a split to what the card approved: the card pays the spend's remainder first, then the tip. */
export function withCardApproval(split: Split, approved: number): Split {
  const spendByCard = split.approvedSpend - split.appliedDiscount - split.giftCardSpend;
  const tipByCard = split.approvedTip - split.giftCardTip;
  const spendPaid = Math.min(approved, spendByCard);
  const tipPaid = Math.min(approved - spendPaid, tipByCard);
  return {
    ...split,
    approvedSpend: split.appliedDiscount + split.giftCardSpend + spendPaid,
    approvedTip: split.giftCardTip + tipPaid,
    charged: spendPaid + tipPaid,
  };
}

function locationColumns(location: LocationItem) {
  return {
    location_name: location.name ?? null,
    location_street_address: location.street_address ?? '',
    location_extended_address: location.extended_address ? location.extended_address : null,
    location_locality: location.locality ?? '',
    location_region: location.region ?? '',
    location_postal_code: location.postal_code ?? '',
    location_latitude: location.latitude ?? null,
    location_longitude: location.longitude ?? null,
  };
}

/**
 * Settles one order: charges, moves value and records the completed order exactly once per source.
 * Used by in-store completion (orders.ts) and order-ahead completion. Throws ApiError for every
 * business outcome (422 declined/insufficient/..., 409 another settlement in flight).
 */
export async function settleOrder(input: SettleOrderInput): Promise<OrderRecord> {
  for (let round = 1; ; round++) {
    try {
      return await settleOrderOnce(input);
    } catch (error) {
      // A balance moved between the split and the commit (e.g. two orders of one customer at once): the
      // charge was voided and the claim released with a new attempt, so settle again from fresh balances.
      // Answering 422 instead would store it under the Idempotency-Key, and no retry could succeed.
      const balanceChanged = error instanceof ApiError && error.details?.[0]?.code === 'balance_changed';
      if (!balanceChanged || round >= BALANCE_CHANGED_ROUNDS) throw error;
      await backoff(round, CONTENTION_BACKOFF);
    }
  }
}

/** How many times a settlement starts over when balances move under it. */
const BALANCE_CHANGED_ROUNDS = 4;

async function settleOrderOnce(input: SettleOrderInput): Promise<OrderRecord> {
  const [location, merchant] = input.prefetched
    ? [input.prefetched.location, input.prefetched.merchant]
    : await readItems([keys.location(input.locationId), keys.merchant(input.merchantId)], { consistent: true }).then(
        ([locationItem, merchantItem]) =>
          [locationItem?.merchant_id === input.merchantId ? (locationItem as unknown as LocationItem) : undefined, merchantItem as unknown as MerchantItem | undefined] as const,
      );
  if (!location || !merchant) throw unprocessable('order', 'location_id', "Location can't be blank", 'not_found');
  if (input.appliedDiscountAmount > input.spendAmount) {
    throw unprocessable('order', 'applied_discount_amount', 'Applied discount cannot be more than the spend amount.', 'exceeds_spend');
  }
  if (input.discountOnly && !input.partialAuthorizationAllowed) {
    throw unprocessable('order', 'discount_only', 'A discount-only order needs partial_authorization_allowed: the rest is collected by another tender.', 'requires_partial_authorization');
  }

  const claim = await claimSource(input.settlement);
  const completedOrderUuid = input.completedOrderUuid ?? newUuid();
  let chargeId: string | null = null;
  let chargedAmount = 0;
  let chargeKey = '';
  try {
    const giftAccount = giftCardAccountKey(input.userId, input.merchantId);
    const creditAccount = creditAccountKey(input.userId, input.merchantId);
    // Balances, the user (display name, promoted card) and the card promoted when the order was proposed:
    // one consistent BatchGetItem after the claim.
    const hintedCardId = input.prefetched?.promotedCardId ?? null;
    const [giftCardItem, creditItem, user, hintedCard] = await readItems([
      keys.balance(giftAccount),
      keys.balance(creditAccount),
      keys.user(input.userId),
      ...(hintedCardId === null ? [] : [keys.creditCard(input.userId, hintedCardId)]),
    ], { consistent: true });
    const giftCard = { balance: Number(giftCardItem?.balance ?? 0) };
    const credit = { balance: Number(creditItem?.balance ?? 0) };
    if (input.appliedDiscountAmount > credit.balance) {
      throw unprocessable('order', 'applied_discount_amount', `Applied discount is more than the merchant-funded credit available (${credit.balance}).`, 'exceeds_available');
    }
    let split = splitPayment({ spend: input.spendAmount, tip: input.tipAmount, appliedDiscount: input.appliedDiscountAmount, giftCardValue: giftCard.balance, discountOnly: input.discountOnly });

    if (split.charged > 0) {
      const card = await promotedCardOf(input.userId, user, hintedCard);
      if (!card) {
        if (!input.partialAuthorizationAllowed) throw NO_PAYMENT_METHOD();
        split = withCardApproval(split, 0); // rule 4: loyalty only
      } else {
        chargeKey = `settle:${input.settlement.uuid}:${claim.attempt}`;
        const result = await paymentGateway().charge({ gatewayToken: card.gatewayToken, amount: split.charged, allowPartial: input.partialAuthorizationAllowed, idempotencyKey: `${chargeKey}:charge` });
        if (!result.ok) throw result.reason === 'insufficient_funds' ? INSUFFICIENT_FUNDS() : DECLINED();
        chargeId = result.chargeId;
        chargedAmount = result.amount;
        split = withCardApproval(split, result.amount);
      }
    }

    const order = await commitSettlement(input, claim, completedOrderUuid, { location, merchantName: merchant.name, userDisplayName: displayName(user as { first_name?: string; last_name?: string } | undefined), split, chargeId });
    return order;
  } catch (error) {
    // A DynamoDB error may have lost the answer of a commit that happened: then the order is ours.
    const settled = chargeId !== null || isTransientDbError(error) ? await retryTransient(() => settledOrder(input.settlement)) : undefined;
    if (settled?.uuid === completedOrderUuid) return settled;
    // The same charge may belong to a settlement that took over after our lease expired: keep it then.
    const chargeKept = chargeId !== null && settled?.charge_id === chargeId;
    const released = await releaseSource(input.settlement, claim, chargeId !== null);
    // Void only once the attempt is raised: a lease holder on the old attempt would re-use this charge.
    if (chargeId && !chargeKept) {
      if (released) await voidCharge(chargeId, chargedAmount, chargeKey, input.settlement.uuid);
      else log('warn', 'charge_left_to_lease_holder', { charge_id: chargeId, source_uuid: input.settlement.uuid });
    }
    throw error;
  }
}

/**
 * The user's promoted active card (what a charge is made against), from the user item read with the
 * balances; the card item comes from the same batch unless the user promoted another card since the
 * order was proposed (then it is read here).
 */
async function promotedCardOf(userId: number, user: Record<string, unknown> | undefined, hinted: Record<string, unknown> | undefined): Promise<{ gatewayToken: string } | undefined> {
  const promotedId = user?.promoted_card_id;
  if (typeof promotedId !== 'number') return undefined;
  const card = hinted?.card_id === promotedId ? (hinted as unknown as CreditCardItem) : await getCreditCard(userId, promotedId);
  if (card?.state !== 'active') return undefined;
  return { gatewayToken: card.gateway_token };
}

/** The order a source was completed with, if it was. */
async function settledOrder(source: SettlementSource): Promise<OrderRecord | undefined> {
  const current = (await db().send(new GetCommand({ TableName: table(), Key: source.key, ConsistentRead: true }))).Item;
  const completedUuid = current?.completed_order_uuid;
  return typeof completedUuid === 'string' ? getOrder(completedUuid) : undefined;
}

async function voidCharge(chargeId: string, amount: number, chargeKey: string, sourceUuid: string): Promise<void> {
  try {
    const result = await paymentGateway().refund({ chargeId, amount, idempotencyKey: `${chargeKey}:void` });
    if (!result.ok) log('error', 'charge_void_failed', { charge_id: chargeId, source_uuid: sourceUuid });
  } catch (error) {
    log('error', 'charge_void_failed', { charge_id: chargeId, source_uuid: sourceUuid, error: (error as Error).message });
  }
}

async function commitSettlement(
  input: SettleOrderInput,
  claim: Claim,
  uuid: string,
  facts: { location: LocationItem; merchantName: string; userDisplayName: string; split: Split; chargeId: string | null },
): Promise<OrderRecord> {
  const { split } = facts;
  const stateAttribute = input.settlement.stateAttribute ?? 'state';
  let order: OrderRecord | undefined;
  let batch = new LabelledItems();

  const outcome = await transactWrite(async () => {
    const now = isoSeconds();
    const effects = await orderEffects().onCompleted({
      orderUuid: uuid,
      merchantId: input.merchantId,
      locationId: input.locationId,
      userId: input.userId,
      appId: input.appId,
      source: input.source,
      spendAmount: split.approvedSpend,
      qualifyingSpendAmount: Math.max(0, split.approvedSpend - input.exemptionAmount),
      exemptionAmount: input.exemptionAmount,
      taxAmount: input.taxAmount,
      tipAmount: split.approvedTip,
      appliedDiscountAmount: split.appliedDiscount,
      giftCardTotalAmount: split.giftCardSpend + split.giftCardTip,
      chargedAmount: split.charged,
      items: input.items,
      completedAt: now,
    });
    if (effects.transactItems.length > MAX_ORDER_EFFECT_ITEMS) throw new Error(`order effects returned ${effects.transactItems.length} items, more than ${MAX_ORDER_EFFECT_ITEMS}`);
    order = {
      uuid,
      source: input.source,
      source_uuid: input.settlement.uuid,
      state: 'completed',
      merchant_id: input.merchantId,
      merchant_name: facts.merchantName,
      location_id: input.locationId,
      ...locationColumns(facts.location),
      user_id: input.userId,
      app_id: input.appId,
      user_display_name: facts.userDisplayName,
      requested_spend_amount: input.spendAmount,
      requested_tip_amount: input.tipAmount,
      spend_amount: split.approvedSpend,
      tip_amount: split.approvedTip,
      tax_amount: input.taxAmount,
      exemption_amount: input.exemptionAmount,
      applied_discount_amount: split.appliedDiscount,
      gift_card_total_amount: split.giftCardSpend + split.giftCardTip,
      gift_card_tip_amount: split.giftCardTip,
      charged_amount: split.charged,
      charge_id: facts.chargeId,
      credit_earned_amount: effects.creditEarnedAmount,
      credit_reversed_amount: 0,
      items: input.items,
      fees: input.fees ?? [],
      identifier_from_merchant: input.identifierFromMerchant ?? null,
      cashier: input.cashier ?? null,
      register: input.register ?? null,
      receipt_message_html: input.receiptMessageHtml ?? null,
      discount_only: input.discountOnly,
      partial_authorization_allowed: input.partialAuthorizationAllowed,
      created_at: now,
      transacted_at: now,
      refunded_at: null,
      refund_id: null,
    };
    const reference = { order_uuid: uuid };
    batch = new LabelledItems();
    const add = batch.add;
    add('source', {
      Update: {
        TableName: table(),
        Key: input.settlement.key,
        UpdateExpression: 'SET #state = :to, completed_order_uuid = :uuid, updated_at = :now REMOVE settlement_lease_token, settlement_lease_until',
        ConditionExpression: '#state = :from AND settlement_lease_token = :token',
        ExpressionAttributeNames: { '#state': stateAttribute },
        ExpressionAttributeValues: { ':to': input.settlement.toState, ':from': input.settlement.fromState, ':token': claim.leaseToken, ':uuid': uuid, ':now': now },
      },
    });
    // Millisecond time in the index key keeps newest-first exact for orders within one second.
    add('order', putNew({ ...keys.order(uuid), ...keys.userOrdersIndex(input.userId, new Date().toISOString(), uuid), entity: 'Order', ...order, updated_at: now }));
    const giftMovements: Movement[] = [{ kind: 'gift_card_redeemed', amount: -order.gift_card_total_amount, entryId: `order:${uuid}:gift_card_redeemed`, reference }];
    add('gift_card', ...balanceChangeItems(giftCardAccountKey(input.userId, input.merchantId), giftMovements, { now }));
    const creditMovements: Movement[] = [
      { kind: 'credit_applied', amount: -order.applied_discount_amount, entryId: `order:${uuid}:credit_applied`, reference },
      { kind: 'credit_earned', amount: order.credit_earned_amount, entryId: `order:${uuid}:credit_earned`, reference },
    ];
    add('credit', ...balanceChangeItems(creditAccountKey(input.userId, input.merchantId), creditMovements, { now }));
    const cardMovements: Movement[] = [{ kind: 'card_charge', amount: order.charged_amount, entryId: `order:${uuid}:card_charge`, reference: { ...reference, charge_id: facts.chargeId } }];
    add('card', ...balanceChangeItems(cardAccountKey(input.userId, input.merchantId), cardMovements, { now }));
    add('guard', ...(input.guard ?? []));
    add('effects', ...effects.transactItems);
    const respond = input.respond?.(order);
    if (respond) add('idempotency', respond);
    return batch.items;
  });

  if (outcome.committed) {
    if (!order) throw new Error('settlement committed without an order');
    return order;
  }
  const reasons = outcome.reasons;
  const failed = batch.failedLabels(reasons);
  if (failed.has('source')) {
    const current = (await db().send(new GetCommand({ TableName: table(), Key: input.settlement.key, ConsistentRead: true }))).Item;
    // Our own transaction, re-sent after its answer was lost, finds the source completed by itself.
    if (current?.completed_order_uuid === uuid && order) return order;
    throw current?.[stateAttribute] === input.settlement.toState ? ALREADY_COMPLETED() : NOT_COMPLETABLE();
  }
  if (failed.has('idempotency')) throw IN_PROGRESS(1);
  if (failed.has('gift_card') || failed.has('credit') || failed.has('effects')) throw BALANCE_CHANGED();
  if (failed.has('guard')) throw NOT_COMPLETABLE();
  throw new Error(`settlement transaction cancelled: ${reasons.join(',')}`);
}

export async function getOrder(uuid: string): Promise<OrderRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.order(uuid), ConsistentRead: true }));
  return result.Item as OrderRecord | undefined;
}

/** The merchant-facing order (refund response). */
export function serializeMerchantOrder(order: OrderRecord) {
  return {
    order: {
      created_at: order.created_at,
      merchant_funded_credit_amount: order.applied_discount_amount,
      earn_amount: order.credit_earned_amount,
      uuid: order.uuid,
      loyalty_id: order.user_id,
      spend_amount: order.spend_amount,
      refunded_at: order.refunded_at,
      tip_amount: order.tip_amount,
      total_amount: order.spend_amount + order.tip_amount,
      location_id: order.location_id,
      user_display_name: order.user_display_name,
    },
  };
}

const REFUND_FAILED = () => unprocessable('order', 'base', 'The refund was unsuccessful; contact support');

/**
 * Refunds an order once: the card charge goes back through the gateway (idempotency key derived from
 * the order, so concurrent refunds are one gateway refund), then one transaction marks the order
 * refunded (guarded by its state), restores gift card value and applied credit, reverses earned credit
 * (what is left of it: credit already spent stays spent) and undoes loyalty.
 */
export async function refundOrder(input: { merchantId: number; orderUuid: string; managerConfirmation?: string | null; respond?: (order: OrderRecord) => TransactItem | undefined }): Promise<OrderRecord> {
  // The order, the merchant (its manager confirmation) and what the order effects need: one BatchGetItem.
  const effectKeys = orderEffects().refundReadKeys?.(input.orderUuid) ?? [];
  const [orderItem, merchantItem, ...effectItems] = await readItems([keys.order(input.orderUuid), keys.merchant(input.merchantId), ...effectKeys], { consistent: true });
  const order = orderItem as OrderRecord | undefined;
  if (!order) throw notFound();
  if (order.merchant_id !== input.merchantId) throw unauthorized('Not authorized to refund orders for this merchant.', 'order', 'merchant_token');
  const merchant = merchantItem as MerchantItem | undefined;
  const prefetchedByKey = new Map(effectKeys.map((key, index) => [`${key.pk}\u0000${key.sk}`, effectItems[index]]));
  if (merchant?.manager_confirmation && merchant.manager_confirmation !== (input.managerConfirmation ?? '')) {
    throw unprocessable('refund', 'manager_confirmation', 'Manager confirmation was incorrect.');
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
    const current = (await retryTransient(() => db().send(new GetCommand({ TableName: table(), Key: keys.order(order.uuid), ConsistentRead: true })))).Item;
    return current?.refund_token === refundToken ? (current as OrderRecord) : undefined;
  };
  let builds = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const outcome = await transactWrite(async () => {
      const now = isoSeconds();
      const creditAccount = creditAccountKey(order.user_id, order.merchant_id);
      // The first try reuses the batch read above and does not read the credit balance: it reverses all
      // reversible earned credit, and the transaction's `balance >= :debit` guard refuses it if part of
      // that credit was spent. Every later try (a condition or a conflict cancelled the one before) reads
      // afresh and reverses only what the balance holds.
      const first = builds++ === 0;
      const [credit, effects] = await Promise.all([
        first ? undefined : getBalance(creditAccount),
        orderEffects().onRefunded({
          prefetched: first ? (key) => (prefetchedByKey.has(`${key.pk}\u0000${key.sk}`) ? { item: prefetchedByKey.get(`${key.pk}\u0000${key.sk}`) } : undefined) : undefined,
          orderUuid: order.uuid,
          merchantId: order.merchant_id,
          userId: order.user_id,
          spendAmount: order.spend_amount,
          qualifyingSpendAmount: Math.max(0, order.spend_amount - order.exemption_amount),
          creditEarnedAmount: order.credit_earned_amount,
          refundedAt: now,
        }),
      ]);
      // Earned credit already spent elsewhere cannot come back; the refund goes ahead and reverses the rest.
      const reversible = Math.max(0, order.credit_earned_amount - effects.creditReversedAmount);
      const creditReversed = credit ? Math.min(reversible, credit.balance + order.applied_discount_amount) : reversible;
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
      ], { now }));
      add('card', ...balanceChangeItems(cardAccountKey(order.user_id, order.merchant_id), [
        { kind: 'card_refund', amount: -order.charged_amount, entryId: `order:${order.uuid}:card_refund`, reference: { ...reference, refund_id: refundId } },
      ], { now }));
      add('effects', ...effects.transactItems);
      const respond = refunded && input.respond?.(refunded);
      if (respond) add('idempotency', respond);
      return batch.items;
    }).catch(async (error: unknown) => {
      if (isTransientDbError(error) && (await committedByUs())) return { committed: true } as const;
      throw error;
    });
    if (outcome.committed) {
      if (!refunded) throw new Error('refund committed without an order');
      return refunded;
    }
    const reasons = outcome.reasons;
    const failed = batch.failedLabels(reasons);
    if (failed.has('order')) {
      // Our own transaction, re-sent after its answer was lost, finds the order refunded by itself.
      if (refunded && (await committedByUs())) return refunded;
      throw REFUND_FAILED();
    }
    if (failed.has('idempotency')) throw conflict('This refund is being processed by another request; retry shortly.', 1, 'order', 'in_progress');
    // A balance or loyalty item moved under us: read again and retry.
    await backoff(attempt + 1, CONTENTION_BACKOFF);
  }
  throw new Error(`refund of ${order.uuid} did not commit after repeated contention`);
}
