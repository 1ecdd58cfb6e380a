/**
 * The settlement saga: the money path of every completed order (in-store and order-ahead).
 *
 *  0. Hold the customer (lease.ts `acquireHold`): one settlement per customer and merchant at a time, so two
 *     orders of one customer never both charge against the same balances (and one of them void).
 *  1. Claim the source (lease.ts `acquireClaim`): only the claim's holder may charge. A one-step order takes 0
 *     and 1 in the transaction that creates its source (`Settlement.acquired`, one-step.ts).
 *  2. Read balances (gift card value, merchant-funded credit), the user and the promoted card in one
 *     batch, and loyalty's campaigns and user state (two Queries), all sent beside the claim (one round
 *     trip of waiting instead of three) and used only once the claim is ours; work out the split
 *     (payment-split.ts).
 *  3. Charge the card through the gateway with an idempotency key derived from the source uuid and the
 *     claim's attempt number — a retry after a crash (lease expired, same attempt) is the same charge.
 *  4. Commit ONE TransactWriteItems: the source's state transition guarded by our lease, the order, every
 *     balance change with its ledger entry, loyalty's effects, and the Idempotency-Key COMPLETED record.
 *  5. If that transaction is cancelled by a condition, release the claim with the attempt number raised,
 *     then refund (void) the charge through the gateway, so the next try is a new charge and no try can
 *     commit a voided one. A commit whose answer was lost is recognised by its order uuid and answered.
 * Crash between 3 and 4: nothing is committed, the lease expires, a retry repeats the same charge
 * (same key) and commits it. Gateway void failing in 5: logged as `charge_void_failed` for reconciliation.
 *
 * The caller reads and checks the order's parties (`orderParties`) and hands the settlement every fact it
 * needs; the saga reads nothing it was given.
 */
import { keys } from '#shared/db/keys.ts';
import { newUuid, nextId } from '#shared/db/ids.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { LabelledItems, lostRace, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF, isTransientDbError } from '#shared/db/transient.ts';
import { ApiError, conflict, unprocessable } from '#shared/errors.ts';
import { CreditCard, getCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { availableCreditFrom } from '#shared/domain/money/credit.ts';
import { chargeLimitKeys, chargeLimitsFrom, chargeMonth, countChargeItems, refuseOverLimits, type ChargeLimits } from '#shared/domain/money/charge-limits.ts';
import { balanceChangeItems, cardAccountKey, creditAccountKey, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { Location, type LocationItem } from '#shared/domain/merchants/locations.ts';
import { completionEffects, MAX_ORDER_EFFECT_ITEMS, readCompletionState, type CompletionReads } from '#shared/domain/loyalty/order-effects.ts';
import { merchantAudience, orderResource, recordEvent } from '#shared/domain/events/catalogue.ts';
import { Merchant, type MerchantItem } from '#shared/domain/merchants/merchants.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import { log } from '#shared/log.ts';
import { recordChargeDeclined, recordChargeVoid, recordOrderCompleted } from '#shared/metrics.ts';
import { isoSeconds } from '#shared/time.ts';
import { acquireClaim, acquireHold, completedOrderOf, completeItems, IN_PROGRESS, mayBeRepeat, NOT_COMPLETABLE, readSource, releaseAcquired } from './lease.ts';
import { releaseClaim, releaseHold, repeatedSettlement, stateRefusal, type Acquired, type Claim, type CustomerHold, type SettlementSource } from './lease.ts';
import { splitPayment, withCardApproval, type Split } from './payment-split.ts';
import { LOCATION_NOT_FOUND, requireMerchantsLocation } from './parties.ts';
import { displayName, newOrderRecord, putOrderItem, type OrderRecord, type OrderSource, type OrderTerms } from './record.ts';
import { serializeMerchantOrder } from './views.ts';

export interface Settlement {
  kind: OrderSource;
  source: SettlementSource;
  /** uuid of the completed order (default: a new one, as in-store completion requires). */
  orderUuid?: string;
  /** The merchant and its own location, as `orderParties` checked them. */
  merchant: MerchantItem;
  location: LocationItem;
  userId: number;
  appId: number;
  /** The card the user had promoted when the order was proposed: read with the balances (null: none known). */
  promotedCardId: number | null;
  terms: OrderTerms;
  /**
   * `terms.applied_discount_amount` is a quote, not a demand: apply at most the merchant-funded credit still
   * available when the settlement holds the customer (order ahead: the credit was quoted at validation and
   * another order of the customer may have spent it since). Without it, asking for more is a 422.
   */
  discountUpToAvailable?: boolean;
  /**
   * The source is the order's natural key (a proposed order, a remote check): a repeat of its completion with
   * the same terms answers the stored order, charging nothing (lease.ts `repeatedSettlement`; issue 34.2).
   */
  answersRepeats?: boolean;
  /** Extra guarded writes of the source committed with the money. */
  guard?: TransactItem[];
  /** Builds the Idempotency-Key COMPLETED record from the order, to commit in the same transaction. */
  storeResponse?: (order: OrderRecord) => TransactItem | undefined;
  /**
   * The customer's hold and the source's claim when the caller took them with the source's creation (a
   * one-step order, one-step.ts, which asks `settlementRefusal` first so that a refused order writes
   * nothing): the first round uses them instead of taking its own; a round after a balance moved takes them
   * again (the failed round gave both back), and a refused settlement gives them back before its answer.
   */
  acquired?: Acquired;
}

const DECLINED = () => unprocessable('order', 'base', 'Sorry. We cannot charge the credit card at this time.');
const INSUFFICIENT_FUNDS = () =>
  unprocessable('order', 'base', 'The card has insufficient funds for this order; allow partial authorization or collect another tender.', 'insufficient_funds');
const NO_PAYMENT_METHOD = () =>
  unprocessable('order', 'base', 'This customer has no payment method; allow partial authorization to apply loyalty only.', 'no_payment_method');
/**
 * The customer's balances or loyalty kept moving under this settlement (nothing was charged or moved): a
 * race a retry can win, so 409 with Retry-After, never a 422 the Idempotency-Key would store for every retry.
 */
const BALANCE_CHANGED = () => conflict("The customer's balance changed while completing this order; retry it.", 1, 'order', 'balance_changed');

/** The merchant and its location as read for an order: both must exist and the location must be the merchant's. */
export function orderParties(merchantId: number, locationItem: StoredItem | undefined, merchantItem: StoredItem | undefined, missing: () => ApiError = LOCATION_NOT_FOUND): { merchant: MerchantItem; location: LocationItem } {
  const location = requireMerchantsLocation(merchantId, Location.from(locationItem), missing);
  const merchant = Merchant.from(merchantItem);
  if (!merchant) throw missing();
  return { merchant, location };
}

/** How many times a settlement starts over when balances move under it. */
const BALANCE_CHANGED_ROUNDS = 4;

/** Why a settlement is refused before it holds or charges anything (its source's state, its terms), or undefined. */
export function settlementRefusal(settlement: Pick<Settlement, 'source' | 'terms'>): ApiError | undefined {
  const refused = stateRefusal(settlement.source, settlement.source.state);
  if (refused) return refused;
  const { terms } = settlement;
  if (terms.applied_discount_amount > terms.spend_amount) {
    return unprocessable('order', 'applied_discount_amount', 'Applied discount cannot be more than the spend amount.', 'exceeds_spend');
  }
  if (terms.discount_only && !terms.partial_authorization_allowed) {
    return unprocessable('order', 'discount_only', 'A discount-only order needs partial_authorization_allowed: the rest is collected by another tender.', 'requires_partial_authorization');
  }
  return undefined;
}

/**
 * Settles one order: charges, moves value and records the completed order exactly once per source (a
 * repeat of a completed source answers its order when `answersRepeats`). Throws ApiError for every business outcome (422 declined/insufficient/..., 409 another settlement in flight).
 */
export async function settleOrder(settlement: Settlement): Promise<OrderRecord> {
  try {
    return await settleSource(settlement);
  } catch (error) {
    // Completed (or being completed) already: a repeat of that completion answers its order.
    if (!settlement.answersRepeats || !mayBeRepeat(error)) throw error;
    const repeated = await repeatedSettlement(settlement.source, settlement.terms);
    if (repeated) return repeated;
    throw error;
  }
}

async function settleSource(settlement: Settlement): Promise<OrderRecord> {
  let acquired = settlement.acquired;
  const refused = settlementRefusal(settlement);
  if (refused) {
    // Nothing was charged: what the caller took is given back, as a failed round gives back its own.
    if (acquired) await releaseAcquired(settlement.source, acquired);
    throw refused;
  }
  for (let round = 1; ; round++) {
    const hold = acquired?.hold ?? (await acquireHold(settlement.userId, settlement.merchant.merchant_id, settlement.source.uuid));
    try {
      // Committed: the money transaction deleted the hold with the rest.
      const order = await settleHeld(settlement, hold, acquired?.claim);
      recordOrderCompleted(order.spend_amount + order.tip_amount);
      return order;
    } catch (error) {
      await releaseHold(hold);
      acquired = undefined;
      // A balance moved between the split and the commit (e.g. two orders of one customer at once): the
      // charge was voided and the claim released with a new attempt, so settle again from fresh balances.
      // Answering 422 instead would store it under the Idempotency-Key, and no retry could succeed.
      const balanceChanged = error instanceof ApiError && error.details?.[0]?.code === 'balance_changed';
      if (!balanceChanged || round >= BALANCE_CHANGED_ROUNDS) throw error;
      await backoff(round, CONTENTION_BACKOFF);
    }
  }
}

interface Charge {
  chargeId: string | null;
  amount: number;
  /** Prefix of the gateway idempotency keys of this claim's charge and its void. */
  key: string;
}

async function settleHeld(settlement: Settlement, hold: CustomerHold, claimed: Claim | undefined): Promise<OrderRecord> {
  const { source, terms, userId } = settlement;
  const merchantId = settlement.merchant.merchant_id;
  // Balances, the user (display name, promoted card) and the card promoted when the order was proposed:
  // one consistent BatchGetItem, sent beside the claim (the claim writes none of them, and the customer's
  // lease already keeps every other settlement of this customer off them; a change by anything else fails
  // the transaction's conditions, as a change after the claim would). Only the claim's holder reads the answer.
  const hintedCardId = settlement.promotedCardId;
  // The card charge limits (charge-limits.ts) are read with them: the app's limits and this month's counters.
  const month = chargeMonth();
  const balances = readItems(
    [
      keys.balance(giftCardAccountKey(userId, merchantId)),
      keys.balance(creditAccountKey(userId, merchantId)),
      keys.user(userId),
      keys.creditGrants(userId, merchantId),
      ...chargeLimitKeys(userId, merchantId, settlement.appId, month),
      ...(hintedCardId === null ? [] : [keys.creditCard(userId, hintedCardId)]),
    ],
    { consistent: true },
  );
  // Loyalty's reads for the order's effects (the merchant's campaigns, the user's loyalty there), likewise: under
  // the customer's lease, used by the first build of the money transaction (a rebuild reads afresh), guarded there.
  const loyalty = readCompletionState(userId, merchantId);
  // The order's integer id, drawn beside the reads (a sharded counter: no hot item); unused when nothing commits.
  const integerId = nextId('order');
  // Not awaited when the claim fails: that error is the answer, not these reads'.
  balances.catch(() => undefined);
  loyalty.catch(() => undefined);
  integerId.catch(() => undefined);
  const claim = claimed ?? (await acquireClaim(source));
  const orderUuid = settlement.orderUuid ?? newUuid();
  const charge: Charge = { chargeId: null, amount: 0, key: `settle:${source.uuid}:${claim.attempt}` };
  try {
    // Both awaited before any charge: a failed read charges nothing.
    const [[giftCardItem, creditItem, user, grants, appItem, userMonth, merchantMonth, hintedCard], loyaltyRead, orderIntegerId] = await Promise.all([balances, loyalty, integerId]);
    const limits = chargeLimitsFrom([appItem, userMonth, merchantMonth], settlement.merchant, month);
    // Expired credit is never applied: a grant whose time has passed leaves the account first (credit.ts).
    // A refund's claw-back can leave the credit negative (a debt): then nothing is available, and nothing is owed here.
    const creditBalance = (await availableCreditFrom(userId, merchantId, [creditItem, giftCardItem, grants])).merchantFunded;
    // Read under the customer's hold: no other settlement of this customer can spend it before our commit.
    const appliedDiscount = settlement.discountUpToAvailable ? Math.min(terms.applied_discount_amount, creditBalance) : terms.applied_discount_amount;
    if (appliedDiscount > creditBalance) {
      throw unprocessable('order', 'applied_discount_amount', `Applied discount is more than the merchant-funded credit available (${creditBalance}).`, 'exceeds_available');
    }
    let split = splitPayment({
      spend: terms.spend_amount,
      tip: terms.tip_amount,
      appliedDiscount,
      giftCardValue: Number(giftCardItem?.balance ?? 0),
      discountOnly: terms.discount_only,
    });

    if (split.charged > 0) {
      const card = await promotedCardOf(userId, user, hintedCard);
      if (!card) {
        if (!terms.partial_authorization_allowed) throw NO_PAYMENT_METHOD();
        split = withCardApproval(split, 0); // rule 4: loyalty only
      } else {
        refuseOverLimits(limits, split.charged, 'order');
        const result = await paymentGateway().charge({ gatewayToken: card.gatewayToken, amount: split.charged, allowPartial: terms.partial_authorization_allowed, idempotencyKey: `${charge.key}:charge` });
        if (!result.ok) recordChargeDeclined();
        if (!result.ok) throw result.reason === 'insufficient_funds' ? INSUFFICIENT_FUNDS() : DECLINED();
        charge.chargeId = result.chargeId;
        charge.amount = result.amount;
        split = withCardApproval(split, result.amount);
      }
    }
    const facts = { userDisplayName: displayName(user), userAppId: userAppOf(settlement, user), split, chargeId: charge.chargeId, limits, loyaltyRead, integerId: orderIntegerId };
    return await commitSettlement(settlement, { hold, claim }, orderUuid, facts);
  } catch (error) {
    // A DynamoDB error may have lost the answer of a commit that happened: then the order is ours.
    const settled = charge.chargeId !== null || isTransientDbError(error) ? await completedOrderOf(source) : undefined;
    if (settled?.uuid === orderUuid) return settled;
    // The same charge may belong to a settlement that took over after our lease expired: keep it then.
    const chargeKept = charge.chargeId !== null && settled?.charge_id === charge.chargeId;
    const released = await releaseClaim(source, claim, charge.chargeId !== null);
    // Void only once the attempt is raised: a lease holder on the old attempt would re-use this charge.
    if (charge.chargeId && !chargeKept) {
      if (released) await voidCharge(charge, source.uuid);
      else log('warn', 'charge_left_to_lease_holder', { charge_id: charge.chargeId, source_uuid: source.uuid });
    }
    throw error;
  }
}

/**
 * The user's promoted active card (what a charge is made against), from the user item read with the
 * balances; the card item comes from the same batch unless the user promoted another card since the
 * order was proposed (then it is read here).
 */
async function promotedCardOf(userId: number, user: StoredItem | undefined, hinted: StoredItem | undefined): Promise<{ gatewayToken: string } | undefined> {
  const promotedId = user?.promoted_card_id;
  if (typeof promotedId !== 'number') return undefined;
  const card = hinted?.card_id === promotedId ? CreditCard.from(hinted) : await getCreditCard(userId, promotedId);
  if (card?.state !== 'active') return undefined;
  return { gatewayToken: card.gateway_token };
}

async function voidCharge(charge: Charge, sourceUuid: string): Promise<void> {
  try {
    const result = await paymentGateway().refund({ chargeId: charge.chargeId!, amount: charge.amount, idempotencyKey: `${charge.key}:void` });
    recordChargeVoid(result.ok);
    if (!result.ok) log('error', 'charge_void_failed', { charge_id: charge.chargeId, source_uuid: sourceUuid });
  } catch (error) {
    recordChargeVoid(false);
    log('error', 'charge_void_failed', { charge_id: charge.chargeId, source_uuid: sourceUuid, error: (error as Error).message });
  }
}

/**
 * The app loyalty announces the order's rewards to (loyalty-events.ts): the app an order-ahead order was
 * placed through; in store (the token is the POS's), the app the user registered through.
 */
function userAppOf(settlement: Settlement, user: StoredItem | undefined): number | undefined {
  if (settlement.kind === 'order_ahead') return settlement.appId;
  return typeof user?.created_app_id === 'number' ? user.created_app_id : undefined;
}

async function commitSettlement(
  settlement: Settlement,
  acquired: Acquired,
  uuid: string,
  facts: { userDisplayName: string; userAppId: number | undefined; split: Split; chargeId: string | null; limits: ChargeLimits; loyaltyRead: CompletionReads; integerId: number },
): Promise<OrderRecord> {
  const { source, userId } = settlement;
  const merchantId = settlement.merchant.merchant_id;
  let order: OrderRecord | undefined;
  let batch = new LabelledItems();
  // Loyalty's reads made beside the claim serve the first build only: a build after a conflict reads afresh.
  let loyaltyRead: CompletionReads | undefined = facts.loyaltyRead;

  const outcome = await transactWrite(async () => {
    const now = isoSeconds();
    order = newOrderRecord({
      uuid,
      source: settlement.kind,
      sourceUuid: source.uuid,
      merchant: settlement.merchant,
      location: settlement.location,
      userId,
      appId: settlement.appId,
      userDisplayName: facts.userDisplayName,
      terms: settlement.terms,
      split: facts.split,
      chargeId: facts.chargeId,
      now,
      integerId: facts.integerId,
    });
    const read = loyaltyRead;
    loyaltyRead = undefined;
    const effects = await completionEffects(order, facts.userAppId, read);
    if (effects.transactItems.length > MAX_ORDER_EFFECT_ITEMS) throw new Error(`order effects returned ${effects.transactItems.length} items, more than ${MAX_ORDER_EFFECT_ITEMS}`);
    order.credit_earned_amount = effects.creditEarnedAmount;
    // The month the charge counts in: a refund gives it back there.
    if (order.charged_amount > 0) order.charge_month = chargeMonth(now);

    const reference = { order_uuid: uuid };
    batch = new LabelledItems();
    const add = batch.add;
    const leases = completeItems(source, acquired, uuid, now, settlement.terms);
    add('source', leases.source);
    add('customer', leases.customer);
    add('order', putOrderItem(order));
    add('gift_card', ...balanceChangeItems(giftCardAccountKey(userId, merchantId), [
      { kind: 'gift_card_redeemed', amount: -order.gift_card_total_amount, entryId: `order:${uuid}:gift_card_redeemed`, reference },
    ], { now }));
    add('credit', ...balanceChangeItems(creditAccountKey(userId, merchantId), [
      { kind: 'credit_applied', amount: -order.applied_discount_amount, entryId: `order:${uuid}:credit_applied`, reference },
      { kind: 'credit_earned', amount: order.credit_earned_amount, entryId: `order:${uuid}:credit_earned`, reference },
    ], { now }));
    add('card', ...balanceChangeItems(cardAccountKey(userId, merchantId), [
      { kind: 'card_charge', amount: order.charged_amount, entryId: `order:${uuid}:card_charge`, reference: { ...reference, charge_id: facts.chargeId } },
    ], { now }));
    add('guard', ...(settlement.guard ?? []));
    add('charge_limit', ...countChargeItems(facts.limits, userId, merchantId, order.charged_amount, now));
    add('effects', ...effects.transactItems);
    add('event', ...(await recordEvent('order.completed', orderResource(uuid), merchantAudience(merchantId), serializeMerchantOrder(order).order, { newResource: true })));
    const stored = settlement.storeResponse?.(order);
    if (stored) add('idempotency', stored);
    return batch.items;
  });

  if (outcome.committed) {
    if (!order) throw new Error('settlement committed without an order');
    return order;
  }
  const failed = batch.failedLabels(outcome.reasons);
  if (failed.has('source')) {
    const current = await readSource(source);
    // Our own transaction, re-sent after its answer was lost, finds the source completed by itself.
    if (current?.completed_order_uuid === uuid && order) return order;
    throw stateRefusal(source, current?.state) ?? NOT_COMPLETABLE();
  }
  if (failed.has('idempotency')) throw IN_PROGRESS(1);
  // A balance, loyalty item or the customer's hold moved, or concurrent writers kept winning: start over.
  // So does a charge limit's counter another charge of the user filled first: the next round refuses it (422).
  if (failed.has('charge_limit') || failed.has('gift_card') || failed.has('credit') || failed.has('effects') || failed.has('customer') || lostRace(outcome)) throw BALANCE_CHANGED();
  if (failed.has('guard')) throw NOT_COMPLETABLE();
  throw new Error(`settlement transaction cancelled: ${outcome.reasons.join(',')}`);
}
