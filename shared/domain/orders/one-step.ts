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
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
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

export async function placeOneStepOrder(input: {
  merchant: { merchantId: number; appId: number };
  /** The user token sent beside the merchant's, if any. */
  user?: UserPrincipal;
  request: OneStepOrderRequest;
  respond?: (order: OrderRecord) => TransactItem | undefined;
}): Promise<OrderRecord> {
  const { merchant, user, request } = input;
  validateIdentifierFromMerchant(request.identifier_from_merchant);
  validateReceiptMessageHtml(request.receipt_message_html);
  if (user && !user.permissions.includes('create_orders')) throw USER_NOT_AUTHORIZED();
  const scanned = request.payment_token_data ?? '';
  if (!user && scanned.trim() === '') throw PAYMENT_TOKEN_INVALID();

  // The location, the merchant and the QR code are independent: one consistent BatchGetItem; the user
  // item (for the promoted card the settlement reads with the balances) follows once the user is known.
  const [locationItem, merchantItem, paymentToken] = await readItems(
    [keys.location(request.location_id), keys.merchant(merchant.merchantId), ...customerKeys({ user, paymentTokenData: scanned })],
    { consistent: true },
  );
  if (locationItem?.merchant_id !== merchant.merchantId) throw ONE_STEP_LOCATION_NOT_FOUND();
  const parties = orderParties(merchant.merchantId, locationItem, merchantItem);
  const userId = customerFrom({ user, paymentTokenData: scanned }, [paymentToken]);
  if (userId === undefined) throw UNRECOGNIZED_CODE();
  const [userItem] = await readItems([keys.user(userId)], { consistent: true });

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
