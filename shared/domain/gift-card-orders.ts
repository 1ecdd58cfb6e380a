/**
 * Gift card value orders (POST /v15/users/gift_card_value_orders, SDK reference A17): a user buys gift card value
 * at a merchant for someone, named by email. The buyer's promoted card is charged once through the gateway port
 * (the charge's idempotency key is the order's uuid), then ONE transaction records the order, the charge on the
 * buyer's card account and the load on the recipient's gift card account (`giftcard:<recipient>:<merchant>`), each
 * with its ledger entry, and the Idempotency-Key's stored response. A transaction that does not commit gives the
 * charge back through the gateway, so no charge is ever left without its value. The recipient's email is an item
 * of that same transaction (the mail outbox, shared/db/mail-outbox.ts): it exists if and only if the order
 * committed, and the table's stream sends it after the answer. Sending to one's own email loads the buyer's own card.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import { mailItem, type OutboxMail } from '#shared/db/mail-outbox.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { LabelledItems, putNew, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { isTransientDbError, retryTransient } from '#shared/db/transient.ts';
import { conflict, unprocessable } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { escapeHtml } from '#shared/mail/mailer.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import { balanceChangeItems, cardAccountKey, giftCardAccountKey, purchasesAccountKey } from '#shared/domain/ledger.ts';
import { MAX_GIFT_CARD_LOAD, MIN_GIFT_CARD_LOAD } from '#shared/domain/gift-cards.ts';
import { getCreditCard } from '#shared/domain/credit-cards.ts';
import { chargeLimitKeys, chargeLimitsFrom, chargeMonth, countChargeItems, OVER_MONTHLY_LIMIT, refuseOverLimits } from '#shared/domain/charge-limits.ts';
import type { MerchantItem } from '#shared/domain/merchants.ts';
import { isoSeconds } from '#shared/time.ts';
import type { GiftCardValueOrderRequest } from '#shared/schemas/money.ts';

export interface GiftCardValueOrder {
  uuid: string;
  buyer_user_id: number;
  recipient_user_id: number;
  merchant_id: number;
  value_amount: number;
  charge_id: string;
  recipient_email: string;
  recipient_name: string | null;
  recipient_message: string | null;
  created_at: string;
}

const invalid = (property: string, message: string, code = 'invalid') => unprocessable('gift_card_value_order', property, message, code);

export function serializeGiftCardValueOrder(order: GiftCardValueOrder) {
  return {
    gift_card_value_order: {
      added_value_amount: order.value_amount,
      merchant_id: order.merchant_id,
      recipient_email: order.recipient_email,
      uuid: order.uuid,
    },
  };
}

/** The recipient: a user with that email (a login of subject `user`). */
function recipientUserId(login: StoredItem | undefined): number | undefined {
  return login?.subject === 'user' && typeof login.user_id === 'number' ? login.user_id : undefined;
}

/** The buyer's promoted active card, from their user item (the card's key needs its id). */
async function buyerCard(userId: number, user: StoredItem | undefined): Promise<{ gatewayToken: string } | undefined> {
  const promotedId = user?.promoted_card_id;
  const card = typeof promotedId === 'number' ? await getCreditCard(userId, promotedId) : undefined;
  return card?.state === 'active' ? { gatewayToken: card.gateway_token } : undefined;
}

export async function orderGiftCardValue(
  buyer: { userId: number; appId: number },
  request: GiftCardValueOrderRequest,
  respond?: (order: GiftCardValueOrder) => TransactItem | undefined,
): Promise<GiftCardValueOrder> {
  if (request.merchant_id === undefined || request.merchant_id === null) throw invalid('merchant_id', "Merchant can't be blank", 'missing');
  if (request.value_amount < MIN_GIFT_CARD_LOAD) throw invalid('value_amount', 'Value amount must be at least $10.00', 'below_minimum');
  if (request.value_amount > MAX_GIFT_CARD_LOAD) throw invalid('value_amount', 'Value amount must be at most $500.00', 'above_maximum');
  const buyerUserId = buyer.userId;
  // The buyer's card charge limits (charge-limits.ts) are read with the merchant: the app's and this month's counters.
  const month = chargeMonth();
  // One consistent BatchGetItem: the merchant, the limits (the app, this month's counters), the recipient's login, the buyer.
  const [merchantItem, appItem, userMonth, merchantMonth, login, buyerItem] = await readItems(
    [keys.merchant(request.merchant_id), ...chargeLimitKeys(buyerUserId, request.merchant_id, buyer.appId, month), keys.login(request.recipient_email), keys.user(buyerUserId)],
    { consistent: true },
  );
  const merchant = merchantItem as MerchantItem | undefined;
  if (!merchant) throw invalid('merchant_id', 'Merchant not found', 'not_found');
  const recipientId = recipientUserId(login);
  if (recipientId === undefined) throw invalid('recipient_email', 'Recipient email does not match any user; ask them to sign up first', 'not_found');
  const card = await buyerCard(buyerUserId, buyerItem);
  if (!card) throw invalid('base', 'Add a credit card to buy gift cards', 'no_credit_card');
  const limits = chargeLimitsFrom([appItem, userMonth, merchantMonth], merchant, month);
  refuseOverLimits(limits, request.value_amount, 'gift_card_value_order');

  const uuid = newUuid();
  const charge = await paymentGateway().charge({ gatewayToken: card.gatewayToken, amount: request.value_amount, allowPartial: false, idempotencyKey: `gcorder:${uuid}:charge` });
  if (!charge.ok) throw invalid('base', 'Sorry. We cannot charge the credit card at this time.', charge.reason);

  const now = isoSeconds();
  const order: GiftCardValueOrder = {
    uuid,
    buyer_user_id: buyerUserId,
    recipient_user_id: recipientId,
    merchant_id: merchant.merchant_id,
    value_amount: request.value_amount,
    charge_id: charge.chargeId,
    recipient_email: request.recipient_email,
    recipient_name: request.recipient_name ?? null,
    recipient_message: request.recipient_message ?? null,
    created_at: now,
  };
  const reference = { gift_card_value_order_uuid: uuid };
  const batch = new LabelledItems();
  batch.add('order', putNew({ ...keys.giftCardValueOrder(uuid), entity: 'GiftCardValueOrder', ...order, updated_at: now }));
  batch.add('card', ...balanceChangeItems(cardAccountKey(buyerUserId, merchant.merchant_id), [
    { kind: 'card_charge', amount: request.value_amount, entryId: `gcorder:${uuid}:card_charge`, reference: { ...reference, charge_id: charge.chargeId } },
  ], { now }));
  batch.add('gift_card', ...balanceChangeItems(giftCardAccountKey(recipientId, merchant.merchant_id), [
    // The recipient's value comes from what the buyer paid, not from the merchant's till.
    { kind: 'gift_card_load', amount: request.value_amount, entryId: `gcorder:${uuid}`, reference, contra: purchasesAccountKey(buyerUserId, merchant.merchant_id) },
  ], { now }));
  batch.add('charge_limit', ...countChargeItems(limits, buyerUserId, merchant.merchant_id, request.value_amount, now));
  batch.add('mail', mailItem(`gcorder:${uuid}`, recipientMail(order, merchant), now));
  const stored = respond?.(order);
  if (stored) batch.add('idempotency', stored);

  const outcome = await transactWrite(() => batch.items).catch(async (error: unknown) => {
    // The answer may be lost after the order committed: then it stands (and its charge with it).
    if (isTransientDbError(error) && (await orderExists(uuid))) return { committed: true } as const;
    await giveBack(charge.chargeId, uuid, request.value_amount);
    throw error;
  });
  if (!outcome.committed) {
    await giveBack(charge.chargeId, uuid, request.value_amount);
    // Another charge of the buyer used this month's room first: the same refusal as if it had been read.
    if (batch.failedLabels(outcome.reasons).has('charge_limit')) throw OVER_MONTHLY_LIMIT('gift_card_value_order');
    throw conflict('This gift card order is being processed by another request; retry shortly.', 1, 'gift_card_value_order', 'in_progress');
  }
  return order;
}

async function orderExists(uuid: string): Promise<boolean> {
  const result = await retryTransient(() => db().send(new GetCommand({ TableName: table(), Key: keys.giftCardValueOrder(uuid), ConsistentRead: true })));
  return result.Item !== undefined;
}

/** Compensation: the charge of an order that did not commit goes back (same key on a retry: one refund). */
async function giveBack(chargeId: string, uuid: string, amount: number): Promise<void> {
  const refund = await paymentGateway().refund({ chargeId, amount, idempotencyKey: `gcorder:${uuid}:refund` });
  if (!refund.ok) log('error', 'gift_card_order_charge_not_returned', { charge_id: chargeId, order_uuid: uuid });
}

/** The recipient's email (sent from the outbox after the answer; docs/events.md, "Email from the outbox"). */
function recipientMail(order: GiftCardValueOrder, merchant: MerchantItem): OutboxMail {
  const value = `$${(order.value_amount / 100).toFixed(2)}`;
  const greeting = order.recipient_name ? `Hi ${order.recipient_name},` : 'Hi,';
  const lines = [greeting, `You have been sent a ${value} gift card for ${merchant.name}. It is on your account now: pay with your QR code there.`];
  if (order.recipient_message) lines.push(`Their message: ${order.recipient_message}`);
  return {
    to: order.recipient_email,
    subject: `A ${value} gift card for ${merchant.name}`,
    text: lines.join('\n\n'),
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
  };
}
