/**
 * In-store orders: a POS proposes an order (learning the discount the customer can apply), then
 * completes it, which settles it (settlement.ts) at most once. Both take the parsed request body as is
 * (shared/schemas/money.ts); each field is mapped to the stored proposal or order in one place.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import { itemsOf, readItems, readKeyedConsistently, type KeyedItems, type StoredItem } from '#shared/db/reads.ts';
import { createItem, type TransactItem } from '#shared/db/transactions.ts';
import { unauthorized, unprocessable } from '#shared/errors.ts';
import { userNamedByPaymentToken } from '#shared/domain/cards/payment-tokens.ts';
import { parsePaymentCode, tipFromPreferences } from '#shared/domain/cards/payment-codes.ts';
import { availableCreditFrom, availableCreditKeys } from '#shared/domain/money/credit.ts';
import type { CompletedOrderRequest, OrderItem, ProposedOrderRequest } from '#shared/schemas/money.ts';
import { isoSeconds } from '#shared/time.ts';
import { availableDiscount } from './payment-split.ts';
import type { OrderRecord } from './record.ts';
import { MERCHANT_NOT_AUTHORIZED, requireMerchantsLocation } from './parties.ts';
import { orderParties, settleOrder } from './settlement.ts';

export const PROPOSED = 'proposed';
export const COMPLETED = 'completed';
export const MAX_IDENTIFIER_FROM_MERCHANT = 10;
export const MAX_RECEIPT_MESSAGE_HTML = 1000;

const USER_NOT_AUTHORIZED = () => unauthorized('Not authorized to create orders for this user.', 'order', 'user_token');
const LOCATION_DIFFERS = () => unprocessable('order', 'location_id', 'Location must be the location the order was proposed at.', 'differs_from_proposal');

export interface ProposedOrderItem {
  uuid: string;
  state: string;
  merchant_id: number;
  app_id: number;
  location_id: number;
  user_id: number;
  spend_amount: number;
  tax_amount: number;
  exemption_amount: number;
  discount_amount: number;
  partial_authorization_allowed: boolean;
  discount_only: boolean;
  items: OrderItem[];
  cashier: string | null;
  register: string | null;
  identifier_from_merchant: string | null;
  /**
   * The user's promoted card when the order was proposed: completion reads that card in the same batch
   * as the user item and the balances, and reads the card again only if the user promoted another since.
   */
  promoted_card_id?: number | null;
  completed_order_uuid?: string;
  created_at: string;
  updated_at: string;
}

const ALLOWED_TAGS = new Set(['a', 'br', 'p', 'strong']);

/** receipt_message_html: at most 1000 characters, only a, br, p and strong tags (a with an http(s)/mailto href only). */
export function validateReceiptMessageHtml(html: string | null | undefined, object = 'order'): void {
  if (html === null || html === undefined) return;
  if (html.length > MAX_RECEIPT_MESSAGE_HTML) {
    throw unprocessable(object, 'receipt_message_html', `Receipt message is too long (maximum is ${MAX_RECEIPT_MESSAGE_HTML} characters)`, 'too_long');
  }
  const invalid = () => unprocessable(object, 'receipt_message_html', 'Receipt message may only use the a, br, p and strong tags', 'invalid');
  if (/<!|<\?/.test(html)) throw invalid();
  for (const match of html.matchAll(/<\/?\s*([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    const tag = match[1]!.toLowerCase();
    const attributes = match[2]!.trim().replace(/\/$/, '').trim();
    if (!ALLOWED_TAGS.has(tag)) throw invalid();
    if (attributes === '') continue;
    if (tag !== 'a' || !/^href\s*=\s*("(https?:|mailto:)[^"]*"|'(https?:|mailto:)[^']*')$/i.test(attributes)) throw invalid();
  }
  // A '<' that does not open one of the tags above (e.g. `<script` without '>') is not allowed either.
  if ((html.match(/</g) ?? []).length !== [...html.matchAll(/<\/?\s*[a-zA-Z][a-zA-Z0-9-]*[^>]*>/g)].length) throw invalid();
}

export function validateIdentifierFromMerchant(identifier: string | null | undefined, object = 'order'): void {
  if (identifier && identifier.length > MAX_IDENTIFIER_FROM_MERCHANT) {
    throw unprocessable(
      object,
      'identifier_from_merchant',
      `Identifier from merchant is too long (maximum is ${MAX_IDENTIFIER_FROM_MERCHANT} characters)`,
      'too_long',
    );
  }
}

/** The user a scanned QR code (payment token item) names, if any and still valid (not expired, not rotated away). */
function userNamedBy(paymentToken: StoredItem | undefined, paymentTokenData: string): number | undefined {
  return paymentTokenData ? userNamedByPaymentToken(paymentToken) : undefined;
}

/** What a POS states about an order, whichever way it opens it (a proposal, a one-step order, a remote check). */
type PosTerms = Pick<
  ProposedOrderRequest,
  'spend_amount' | 'tax_amount' | 'exemption_amount' | 'partial_authorization_allowed' | 'items' | 'cashier' | 'register' | 'identifier_from_merchant'
>;

/** The POS's terms as stored: the one mapping of those fields (absent POS fields are null). */
export function posOrderTerms(request: PosTerms) {
  return {
    spend_amount: request.spend_amount,
    tax_amount: request.tax_amount,
    exemption_amount: request.exemption_amount,
    partial_authorization_allowed: request.partial_authorization_allowed,
    cashier: request.cashier ?? null,
    register: request.register ?? null,
    identifier_from_merchant: request.identifier_from_merchant ?? null,
    items: request.items,
  };
}

/**
 * A new proposed order of `userId` at the merchant: the one mapping from a request to the stored proposal
 * (proposed orders here, one-step orders in one-step.ts). `user` is the user item, whose promoted card the
 * completion will charge unless the user promotes another.
 */
export function newProposedOrder(
  merchant: { merchantId: number; appId: number },
  userId: number,
  user: StoredItem | undefined,
  request: PosTerms & { location_id: number },
  offer: { discount_amount: number; discount_only: boolean },
): ProposedOrderItem {
  const now = isoSeconds();
  return {
    uuid: newUuid(),
    state: PROPOSED,
    merchant_id: merchant.merchantId,
    app_id: merchant.appId,
    location_id: request.location_id,
    user_id: userId,
    ...posOrderTerms(request),
    discount_amount: offer.discount_amount,
    discount_only: offer.discount_only,
    promoted_card_id: typeof user?.promoted_card_id === 'number' ? user.promoted_card_id : null,
    created_at: now,
    updated_at: now,
  };
}

/** What a proposal reads first, keyed by the request alone: the location and the QR code. */
function proposalPartyKeys(request: Pick<ProposedOrderRequest, 'location_id' | 'payment_token_data'>) {
  return [keys.location(request.location_id), keys.paymentToken(parsePaymentCode(request.payment_token_data).tokenData)];
}

/**
 * A proposal's first read, keyed by the request alone: the location and the QR code, one consistent
 * BatchGetItem. The scanned string may carry the app's tip and colour after the token (payment-codes.ts):
 * the token is looked up. functions/proposed-orders-create.ts declares it as the route's prefetch (sent
 * beside the token's read, keyed by the body as it came, shared/http/handler.ts); proposeOrder takes its
 * items only for the keys its validated body names, and makes the checks on them.
 */
export function readProposalParties(request: Pick<ProposedOrderRequest, 'location_id' | 'payment_token_data'>): Promise<KeyedItems> {
  return readKeyedConsistently(proposalPartyKeys(request));
}

/**
 * POST /v15/proposed_orders: stores the proposal and tells the POS the merchant-funded credit the customer can apply.
 * `prefetched` is readProposalParties of this request as it came, started before the token was admitted; the
 * proposal reads itself what it lacks (a failed prefetch, one keyed otherwise than the validated body).
 */
export async function proposeOrder(
  merchant: { merchantId: number; appId: number },
  request: ProposedOrderRequest,
  prefetched?: Promise<KeyedItems>,
): Promise<ProposedOrderItem> {
  validateIdentifierFromMerchant(request.identifier_from_merchant);
  validateReceiptMessageHtml(request.receipt_message_html);
  // Location and QR code are independent: one BatchGetItem. The QR code names the user, so the credit
  // balance (and the user's promoted card, kept on the proposed order for completion) is a second read.
  const [location, paymentToken] = await itemsOf(proposalPartyKeys(request), prefetched, readKeyedConsistently);
  requireMerchantsLocation(merchant.merchantId, location);
  const userId = userNamedBy(paymentToken, request.payment_token_data);
  if (userId === undefined) throw USER_NOT_AUTHORIZED();
  // The offer is merchant-funded credit only (gift card value is a tender the completion applies): the
  // credit balance and its grants (an expiry due first), not the gift card balance.
  const [creditKey, , grantsKey] = availableCreditKeys(userId, merchant.merchantId);
  const [creditItem, grantsItem, user] = await readItems([creditKey!, grantsKey!, keys.user(userId)], { consistent: true });
  const credit = await availableCreditFrom(userId, merchant.merchantId, [creditItem, undefined, grantsItem]);
  const proposed = newProposedOrder(merchant, userId, user, request, {
    discount_amount: availableDiscount(credit.merchantFunded, request.spend_amount, request.exemption_amount),
    discount_only: request.discount_only,
  });
  // The uuid is new: only our own write, re-sent after its answer was lost, can already be there.
  await createItem({ ...keys.proposedOrder(proposed.uuid), entity: 'ProposedOrder', ...proposed }, { resend: true });
  return proposed;
}

export function serializeProposedOrder(proposed: ProposedOrderItem) {
  return {
    proposed_order: {
      uuid: proposed.uuid,
      discount_amount: proposed.discount_amount,
      spend_amount: proposed.spend_amount,
      tax_amount: proposed.tax_amount,
      exemption_amount: proposed.exemption_amount,
      location_id: proposed.location_id,
      created_at: proposed.created_at,
    },
  };
}

export async function getProposedOrder(uuid: string): Promise<ProposedOrderItem | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.proposedOrder(uuid), ConsistentRead: true }));
  return result.Item as ProposedOrderItem | undefined;
}

/**
 * POST /v15/completed_orders: settles a proposed order (at most once) and returns the completed order.
 * Everything the checks need is keyed by the request alone: one consistent BatchGetItem, whose facts
 * (the location, the merchant, the card promoted at proposal) the settlement is given, not re-read.
 */
export async function completeProposedOrder(
  merchantId: number,
  request: CompletedOrderRequest,
  storeResponse?: (order: OrderRecord) => TransactItem | undefined,
): Promise<OrderRecord> {
  validateIdentifierFromMerchant(request.identifier_from_merchant);
  validateReceiptMessageHtml(request.receipt_message_html);
  const code = parsePaymentCode(request.payment_token_data);
  const [proposedItem, paymentToken, locationItem, merchantItem] = await readItems(
    [keys.proposedOrder(request.proposed_order_uuid), keys.paymentToken(code.tokenData), keys.location(request.location_id), keys.merchant(merchantId)],
    { consistent: true },
  );
  const proposed = proposedItem as ProposedOrderItem | undefined;
  if (!proposed) throw unprocessable('order', 'proposed_order_uuid', 'Proposed order not found.', 'not_found');
  if (proposed.merchant_id !== merchantId) throw MERCHANT_NOT_AUTHORIZED();
  const userId = userNamedBy(paymentToken, request.payment_token_data);
  if (userId === undefined || userId !== proposed.user_id) throw USER_NOT_AUTHORIZED();
  // The contract lets a completion differ from its proposal only in tax, spend, the applied discount and the
  // proposal's uuid: the check is closed where it was opened (docs/money.md, "What a completion may change").
  // (A location that does not exist stays the contract's "not found", another merchant's 401, checked first.)
  const parties = orderParties(merchantId, locationItem, merchantItem);
  if (request.location_id !== proposed.location_id) throw LOCATION_DIFFERS();
  return settleOrder({
    kind: 'in_store',
    source: { key: keys.proposedOrder(proposed.uuid), fromState: PROPOSED, toState: COMPLETED, state: proposed.state, uuid: proposed.uuid },
    ...parties,
    userId,
    appId: proposed.app_id,
    promotedCardId: proposed.promoted_card_id ?? null,
    // A tip the POS sends (0 included: the cashier entered it) wins over the one the customer's QR code carries.
    terms: { ...request, tip_amount: request.tip_amount ?? tipFromPreferences(code.preferences, request.spend_amount) },
    // The proposal is the completion's natural key: a POS re-sending it after a lost answer gets the order.
    answersRepeats: true,
    storeResponse,
  });
}
