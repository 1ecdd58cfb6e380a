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
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { log } from '#shared/log.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { createItem, type TransactItem } from '#shared/db/transactions.ts';
import { errorDetail, notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { parsePaymentCode, tipFromPreferences } from '#shared/domain/payment-codes.ts';
import type { OneStepOrderRequest } from '#shared/schemas/pos-money.ts';
import { customerFrom, customerKeys } from '#shared/domain/pos/customer.ts';
import { COMPLETED, newProposedOrder, PROPOSED, validateIdentifierFromMerchant, validateReceiptMessageHtml, type ProposedOrderItem } from './proposals.ts';
import type { OrderRecord } from './record.ts';
import { orderParties, settleOrder, type Settlement } from './settlement.ts';

const UNRECOGNIZED_CODE = () => unprocessable('order', 'base', "We couldn't recognize that as a valid LevelUp Code. Perhaps scan again?");
const PAYMENT_TOKEN_INVALID = () => unprocessable('order', 'payment_token_data', 'Payment token is invalid.', 'invalid');
const USER_NOT_AUTHORIZED = () => unauthorized('Not authorized to create orders for this user.', 'order', 'user_token');
export const ONE_STEP_LOCATION_NOT_FOUND = () => notFound(errorDetail('order', 'location_id', 'Location not found.', 'not_found'));

/** The tip of a one-step order: the request's, else the app's preference on the scanned code (as for completions, payment-codes.ts). */
export function oneStepTip(request: Pick<OneStepOrderRequest, 'tip_amount' | 'spend_amount' | 'payment_token_data'>): number {
  if (request.tip_amount !== null && request.tip_amount !== undefined) return request.tip_amount;
  return tipFromPreferences(request.payment_token_data ? parsePaymentCode(request.payment_token_data).preferences : undefined, request.spend_amount);
}

/** Items read by key, with the keys they were read by: what readOneStepParties hands the order. */
export interface KeyedItems {
  keys: readonly Key[];
  items: readonly (StoredItem | undefined)[];
}

/**
 * A one-step order's reads keyed by the request alone: the location and, when one was scanned, the QR code
 * (one consistent BatchGetItem). The route's prefetch (shared/http/one-step-order.ts), sent beside the
 * token's read: the token is not known yet, so the code is read even when a user token comes with it (the
 * order then ignores it, as it ignores the code itself).
 */
export async function readOneStepParties(request: Pick<OneStepOrderRequest, 'location_id' | 'payment_token_data'>): Promise<KeyedItems> {
  const scanned = request.payment_token_data ?? '';
  const itemKeys = [keys.location(request.location_id), ...(scanned.trim() === '' ? [] : customerKeys({ paymentTokenData: scanned }))];
  return { keys: itemKeys, items: await readItems(itemKeys, { consistent: true }) };
}

/**
 * The items of `wanted`, read consistently: taken from the prefetch when it read them all, else read now
 * (no prefetch, a failed one, or one that lacks a key: the order then does exactly what it did without it).
 */
async function itemsOf(wanted: readonly Key[], prefetched: Promise<KeyedItems> | undefined): Promise<(StoredItem | undefined)[]> {
  const read = await prefetched?.catch(() => undefined);
  if (read) {
    const found = wanted.map((key) => read.keys.findIndex((other) => other.pk === key.pk && other.sk === key.sk));
    if (found.every((index) => index >= 0)) return found.map((index) => read.items[index]);
  }
  return readItems(wanted, { consistent: true });
}

export async function placeOneStepOrder(input: {
  merchant: { merchantId: number; appId: number };
  /** The user token sent beside the merchant's, if any. */
  user?: UserPrincipal;
  request: OneStepOrderRequest;
  respond?: (order: OrderRecord) => TransactItem | undefined;
  /** readOneStepParties of this request, started before the token was admitted (shared/http/one-step-order.ts). */
  prefetched?: Promise<KeyedItems>;
}): Promise<OrderRecord> {
  const { merchant, user, request } = input;
  validateIdentifierFromMerchant(request.identifier_from_merchant);
  validateReceiptMessageHtml(request.receipt_message_html);
  if (user && !user.permissions.includes('create_orders')) throw USER_NOT_AUTHORIZED();
  const scanned = request.payment_token_data ?? '';
  if (!user && scanned.trim() === '') throw PAYMENT_TOKEN_INVALID();

  // The location and the QR code are keyed by the request alone: one consistent BatchGetItem, sent beside
  // the token's read (the route's prefetch, readOneStepParties). The merchant (keyed by the token) and the
  // user item (for the promoted card the settlement reads with the balances; keyed by the QR code or the
  // token) follow together in a second one.
  const [locationItem, paymentToken] = await itemsOf([keys.location(request.location_id), ...customerKeys({ user, paymentTokenData: scanned })], input.prefetched);
  if (locationItem?.merchant_id !== merchant.merchantId) throw ONE_STEP_LOCATION_NOT_FOUND();
  const userId = customerFrom({ user, paymentTokenData: scanned }, [paymentToken]);
  const [merchantItem, userItem] = await readItems([keys.merchant(merchant.merchantId), ...(userId === undefined ? [] : [keys.user(userId)])], { consistent: true });
  const parties = orderParties(merchant.merchantId, locationItem, merchantItem);
  if (userId === undefined) throw UNRECOGNIZED_CODE();

  const tip = oneStepTip(request);
  const source = newProposedOrder(merchant, userId, userItem, request, { discount_amount: request.applied_discount_amount, discount_only: false });
  // The uuid is new: only our own write, re-sent after its answer was lost, can already be there.
  await createItem({ ...keys.proposedOrder(source.uuid), entity: 'ProposedOrder', one_step: true, ...source }, { resend: true });
  try {
    return await settleOrder(settlement(source, parties, userId, merchant.appId, tip, request, input.respond));
  } catch (error) {
    // A refused or failed one-step order leaves nothing behind: its source is ours alone (a new uuid) and,
    // not completed, holds no money (the settlement released it and voided any charge).
    await discardSource(source.uuid);
    throw error;
  }
}

/**
 * Deletes a one-step order's source unless it was completed or a lease is still on it (a release that failed:
 * its charge is left to the lease's expiry and a retry, as for any completion); best effort.
 */
async function discardSource(uuid: string): Promise<void> {
  try {
    await retryTransient(() => db().send(new DeleteCommand({ TableName: table(), Key: keys.proposedOrder(uuid), ConditionExpression: '#state = :proposed AND attribute_not_exists(settlement_lease_token)', ExpressionAttributeNames: { '#state': 'state' }, ExpressionAttributeValues: { ':proposed': PROPOSED } })));
  } catch (error) {
    if (!isConditionFailure(error)) log('warn', 'one_step_source_left', { source_uuid: uuid, error: (error as Error).message });
  }
}

function settlement(
  source: ProposedOrderItem,
  parties: ReturnType<typeof orderParties>,
  userId: number,
  appId: number,
  tip: number,
  request: OneStepOrderRequest,
  respond: ((order: OrderRecord) => TransactItem | undefined) | undefined,
): Settlement {
  return {
    kind: 'in_store',
    source: { key: keys.proposedOrder(source.uuid), fromState: PROPOSED, toState: COMPLETED, state: PROPOSED, uuid: source.uuid },
    ...parties,
    userId,
    appId,
    promotedCardId: source.promoted_card_id ?? null,
    terms: {
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
    },
    respond,
  };
}
