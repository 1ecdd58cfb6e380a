/**
 * The classic one-step order (POST /v15/orders and /v14/orders, deprecated by LevelUp in favour of
 * proposed + completed orders, still sent by older POS clients and the Ruby gem): the order is proposed
 * and completed at once. It is stored as a proposed order of its own and settled by the same saga as a
 * completion (settlement.ts): rules 1-5, partial authorization, loyalty, the ledger and the
 * Idempotency-Key record in the money transaction — only the request's shape differs.
 *
 * The customer is the user whose token comes with the merchant's (`token merchant="M", user="U"`, the
 * token needs create_orders) or the one the scanned QR code names. The tip is the request's, else the one
 * the customer chose in the app (the QR code's preference suffix), as LevelUp's one-step orders did.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { UserPrincipal } from '#shared/auth/tokens.ts';
import { db, isConditionFailure } from '#shared/db/client.ts';
import { and, stateIs } from '#shared/db/conditions.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { log } from '#shared/log.ts';
import { keys } from '#shared/db/keys.ts';
import { itemsOf, readItems, readKeyedConsistently, type KeyedItems, type StoredItem } from '#shared/db/reads.ts';
import { createItem, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { errorDetail, notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { parsePaymentCode, tipFromPreferences } from '#shared/domain/cards/payment-codes.ts';
import type { OneStepOrderRequest } from '#shared/schemas/pos-money.ts';
import { customerFrom, customerKeys } from '#shared/domain/pos/customer.ts';
import { epochSeconds } from '#shared/time.ts';
import { acquiredAtCreation, releaseHold, unclaimedOrClaimedBy, type Acquired, type Claim, type SettlementSource } from './lease.ts';
import {
  COMPLETED,
  newProposedOrder,
  PROPOSED,
  ProposedOrder,
  type ProposedOrderAttributes,
  validateIdentifierFromMerchant,
  validateReceiptMessageHtml,
} from './proposals.ts';
import type { OrderRecord, OrderTerms } from './record.ts';
import { requireMerchantsLocation } from './parties.ts';
import { orderParties, settlementRefusal, settleOrder } from './settlement.ts';

const UNRECOGNIZED_CODE = () => unprocessable('order', 'base', "We couldn't recognize that as a valid LevelUp Code. Perhaps scan again?");
const PAYMENT_TOKEN_INVALID = () => unprocessable('order', 'payment_token_data', 'Payment token is invalid.', 'invalid');
const USER_NOT_AUTHORIZED = () => unauthorized('Not authorized to create orders for this user.', 'order', 'user_token');
export const ONE_STEP_LOCATION_NOT_FOUND = () => notFound(errorDetail('order', 'location_id', 'Location not found.', 'not_found'));

/** The tip of a one-step order: the request's, else the app's preference on the scanned code (as for completions, payment-codes.ts). */
export function oneStepTip(request: Pick<OneStepOrderRequest, 'tip_amount' | 'spend_amount' | 'payment_token_data'>): number {
  if (request.tip_amount !== null && request.tip_amount !== undefined) return request.tip_amount;
  return tipFromPreferences(request.payment_token_data ? parsePaymentCode(request.payment_token_data).preferences : undefined, request.spend_amount);
}

/**
 * A one-step order's reads keyed by the request alone: the location and, when one was scanned, the QR code
 * (one consistent read). The route's prefetch (shared/endpoints/one-step-order.ts), sent beside the
 * token's read, keyed by the body as it came (before validation: the order takes only the items of the keys
 * its validated body names, `itemsOf`); the token is not known yet, so the code is read even when a user
 * token comes with it (the order then ignores it, as it ignores the code itself).
 */
export function readOneStepParties(request: Pick<OneStepOrderRequest, 'location_id' | 'payment_token_data'>): Promise<KeyedItems> {
  const scanned = request.payment_token_data ?? '';
  return readKeyedConsistently([keys.location(request.location_id), ...(scanned.trim() === '' ? [] : customerKeys({ paymentTokenData: scanned }))]);
}

export async function placeOneStepOrder(input: {
  merchant: { merchantId: number; appId: number };
  /** The user token sent beside the merchant's, if any. */
  user?: UserPrincipal;
  request: OneStepOrderRequest;
  storeResponse?: (order: OrderRecord) => TransactItem | undefined;
  /** readOneStepParties of this request, started before the token was admitted (shared/endpoints/one-step-order.ts). */
  prefetched?: Promise<KeyedItems>;
}): Promise<OrderRecord> {
  const { merchant, user, request } = input;
  validateIdentifierFromMerchant(request.identifier_from_merchant);
  validateReceiptMessageHtml(request.receipt_message_html);
  if (user && !user.permissions.includes('create_orders')) throw USER_NOT_AUTHORIZED();
  const scanned = request.payment_token_data ?? '';
  if (!user && scanned.trim() === '') throw PAYMENT_TOKEN_INVALID();

  // The location and the QR code are keyed by the request alone: one consistent BatchGetItem, sent beside
  // the token's read (the route's prefetch, readOneStepParties).
  const [locationItem, paymentToken] = await itemsOf(
    [keys.location(request.location_id), ...customerKeys({ user, paymentTokenData: scanned })],
    input.prefetched,
    readKeyedConsistently,
  );
  requireMerchantsLocation(merchant.merchantId, locationItem, ONE_STEP_LOCATION_NOT_FOUND);
  const userId = customerFrom({ user, paymentTokenData: scanned }, [paymentToken]);
  if (userId === undefined) {
    // Nobody to charge: the merchant is checked first, as for every order, then the code is refused.
    const [merchantItem] = await readItems([keys.merchant(merchant.merchantId)], { consistent: true });
    orderParties(merchant.merchantId, locationItem, merchantItem);
    throw UNRECOGNIZED_CODE();
  }

  // Written before the user is read, so without the promoted card's hint (null: none known); the settlement
  // takes the hint from the user read beside the write (the source of a one-step order serves no one else).
  const source = newProposedOrder(merchant, userId, undefined, request, { discount_amount: request.applied_discount_amount, discount_only: false });
  const sourceAttributes = { one_step: true, ...source };
  const terms = oneStepTerms(request, oneStepTip(request));
  const refused = settlementRefusal({ source: sourceOf(source.uuid), terms });
  if (refused) throw refused;

  // The merchant (keyed by the token) and the user (for the card the settlement reads with the balances) are
  // read beside the transaction that creates the source already claimed and takes the customer's hold: the
  // settlement then starts at its reads, and nothing is read under the hold before the hold is ours.
  const [created, partiesRead] = await Promise.allSettled([
    createClaimedSource(sourceAttributes, userId, merchant.merchantId),
    readItems([keys.merchant(merchant.merchantId), keys.user(userId)], { consistent: true }),
  ]);
  const acquired = created.status === 'fulfilled' ? created.value : undefined;
  let parties: ReturnType<typeof orderParties>;
  let userItem: StoredItem | undefined;
  try {
    if (created.status === 'rejected') throw created.reason;
    if (partiesRead.status === 'rejected') throw partiesRead.reason;
    parties = orderParties(merchant.merchantId, locationItem, partiesRead.value[0]);
    userItem = partiesRead.value[1];
  } catch (error) {
    if (acquired) await giveBack(source.uuid, acquired);
    throw error;
  }
  const promotedCardId = typeof userItem?.promoted_card_id === 'number' ? userItem.promoted_card_id : null;
  // The hold was another settlement's (nothing was written): the source is created on its own and the
  // settlement waits for the hold as every completion does. The uuid is new: only our own write, re-sent
  // after its answer was lost, can already be there.
  if (!acquired) await createItem({ ...ProposedOrder.at(source.uuid).item({ ...sourceAttributes, promoted_card_id: promotedCardId }) }, { resend: true });
  try {
    return await settleOrder({
      kind: 'in_store',
      source: sourceOf(source.uuid),
      ...parties,
      userId,
      appId: merchant.appId,
      promotedCardId,
      terms,
      storeResponse: input.storeResponse,
      acquired,
    });
  } catch (error) {
    // A refused or failed one-step order leaves nothing behind: its source is ours alone (a new uuid) and,
    // not completed, holds no money (the settlement released it and voided any charge).
    await discardSource(source.uuid);
    throw error;
  }
}

/**
 * Creates the one-step order's source already claimed and takes the customer's hold (lease.ts,
 * acquiredAtCreation) in one transaction: what a completion does in three writes (the source,
 * the hold, the claim), a one-step order does in one, as its source is ours alone from its creation.
 * Undefined when the hold is another settlement's, or the transaction kept losing races: nothing was written.
 */
async function createClaimedSource(sourceAttributes: ProposedOrderAttributes, userId: number, merchantId: number): Promise<Acquired | undefined> {
  const now = epochSeconds();
  const { acquired, claimAttributes, holdPut } = acquiredAtCreation(userId, merchantId, sourceAttributes.uuid, now);
  const sourcePut = ProposedOrder.at(sourceAttributes.uuid).putNew({ ...sourceAttributes, ...claimAttributes });
  const outcome = await retryTransient(() => transactWrite(() => [sourcePut, holdPut]));
  // The uuid is new: only this transaction, re-sent after its answer was lost, can have created the source
  // (and then, being one transaction, it took the hold too).
  if (outcome.committed || outcome.reasons[0] === 'ConditionalCheckFailed') return acquired;
  return undefined;
}

/** Undoes createClaimedSource when the order stops before its settlement: the hold is given back and the source deleted. */
async function giveBack(uuid: string, acquired: Acquired): Promise<void> {
  await releaseHold(acquired.hold);
  await discardSource(uuid, acquired.claim);
}

/**
 * Deletes a one-step order's source unless it was completed or a lease other than `claim` is still on it (a
 * release that failed: its charge is left to the lease's expiry and a retry, as for any completion); best effort.
 */
async function discardSource(uuid: string, claim?: Claim): Promise<void> {
  const discard = ProposedOrder.at(uuid).delete(and(stateIs(PROPOSED), unclaimedOrClaimedBy(claim)));
  try {
    await retryTransient(() => db().send(new DeleteCommand(discard.Delete)));
  } catch (error) {
    if (!isConditionFailure(error)) log('warn', 'one_step_source_left', { source_uuid: uuid, error: (error as Error).message });
  }
}

function sourceOf(uuid: string): SettlementSource {
  return { key: keys.proposedOrder(uuid), fromState: PROPOSED, toState: COMPLETED, state: PROPOSED, uuid };
}

function oneStepTerms(request: OneStepOrderRequest, tip: number): OrderTerms {
  return {
    spend_amount: request.spend_amount,
    tax_amount: request.tax_amount,
    tip_amount: tip,
    applied_discount_amount: request.applied_discount_amount,
    exemption_amount: request.exemption_amount,
    partial_authorization_allowed: request.partial_authorization_allowed,
    discount_only: false,
    items: request.items,
    fees: [],
    identifier_from_merchant: request.identifier_from_merchant,
    cashier: request.cashier,
    register: request.register,
    receipt_message_html: request.receipt_message_html,
  };
}
