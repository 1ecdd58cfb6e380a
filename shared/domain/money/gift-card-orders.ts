/**
 * Gift card value orders (POST /v15/users/gift_card_value_orders, SDK reference A17): a user buys gift card value
 * at a merchant for someone, named by email. The buyer's promoted card is charged once through the gateway port
 * (the charge's idempotency key is the order's uuid), then ONE transaction records the order, the charge on the
 * buyer's card account and the load on the recipient's gift card account (`giftcard:<recipient>:<merchant>`), each
 * with its ledger entry, and the Idempotency-Key's stored response. A transaction that does not commit gives the
 * charge back through the gateway, so no charge is ever left without its value. The recipient's email is an item
 * of that same transaction (the mail outbox, shared/db/mail-outbox.ts): it exists if and only if the order
 * committed, and the table's stream sends it after the answer. Sending to one's own email loads the buyer's own card.
 * An email with no account gets the same answer: its value is held for that email (held-gifts.ts) until an
 * account with it is created, and its email tells the recipient to sign up. Every attempt counts against the
 * buyer's hourly limit (rate-limits.ts), so the order cannot probe which emails are registered.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import { mailItem, type OutboxMail } from '#shared/db/mail-outbox.ts';
import { newestFirstQuery, readItems, type StoredItem } from '#shared/db/reads.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { isTransientDbError } from '#shared/db/transient.ts';
import { conflict, unprocessable } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { escapeHtml } from '#shared/mail/mailer.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import { balanceChangeItems, cardAccountKey, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { MAX_GIFT_CARD_LOAD, MIN_GIFT_CARD_LOAD } from '#shared/domain/money/gift-cards.ts';
import { getCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { addHoldItems, emailKey, giftOrderTransfer, heldCount, heldUntil, MAX_HELD_GIFTS_PER_EMAIL } from '#shared/domain/money/held-gifts.ts';
import { consumeOrRefuse, GIFT_CARD_ORDERS_PER_BUYER } from '#shared/domain/rate-limits.ts';
import { chargeLimitKeys, chargeLimitsFrom, chargeMonth, countChargeItems, OVER_MONTHLY_LIMIT, refuseOverLimits } from '#shared/domain/money/charge-limits.ts';
import { Merchant, type MerchantItem } from '#shared/domain/merchants/merchants.ts';
import { GiftCardValueOrderRecord, HeldGiftsIndex, type GiftCardValueOrder, type GiftCardValueOrderState } from '#shared/domain/money/entities.ts';
import { isoSeconds } from '#shared/time.ts';
import type { GiftCardValueOrderRequest } from '#shared/schemas/money.ts';

export type { GiftCardValueOrder, GiftCardValueOrderState } from '#shared/domain/money/entities.ts';

const invalid = (property: string, message: string, code = 'invalid') => unprocessable('gift_card_value_order', property, message, code);
const TOO_MANY_HELD = () =>
  invalid('recipient_email', `This recipient already has ${MAX_HELD_GIFTS_PER_EMAIL} gifts waiting for them to sign up`, 'too_many_held_gifts');

/**
 * The order's answer: the same fields whether the gift was delivered or is held (no registration oracle:
 * docs/security.md); the buyer reads the state in their list of gift card orders.
 */
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

/** Counts the buyer's attempt (every one, before anything is read or charged): 429 past the limit. */
function countAttempt(buyerUserId: number): Promise<void> {
  return consumeOrRefuse(GIFT_CARD_ORDERS_PER_BUYER, String(buyerUserId), {
    object: 'gift_card_value_order',
    message: 'Too many gift card orders; try again later.',
  });
}

export async function orderGiftCardValue(
  buyer: { userId: number; appId: number },
  request: GiftCardValueOrderRequest,
  storeResponse?: (order: GiftCardValueOrder) => TransactItem | undefined,
): Promise<GiftCardValueOrder> {
  if (request.merchant_id === undefined || request.merchant_id === null) throw invalid('merchant_id', "Merchant can't be blank", 'missing');
  if (request.value_amount < MIN_GIFT_CARD_LOAD) throw invalid('value_amount', 'Value amount must be at least $10.00', 'below_minimum');
  if (request.value_amount > MAX_GIFT_CARD_LOAD) throw invalid('value_amount', 'Value amount must be at most $500.00', 'above_maximum');
  const buyerUserId = buyer.userId;
  // The buyer's card charge limits (charge-limits.ts) are read with the merchant: the app's and this month's counters.
  const month = chargeMonth();
  // One consistent BatchGetItem: the merchant, the limits (the app, this month's counters), the recipient's login,
  // the gifts already held for the email, the buyer; beside it, the buyer's attempt is counted.
  const [, [merchantItem, appItem, userMonth, merchantMonth, login, heldIndex, buyerItem]] = await Promise.all([
    countAttempt(buyerUserId),
    readItems(
      [
        keys.merchant(request.merchant_id),
        ...chargeLimitKeys(buyerUserId, request.merchant_id, buyer.appId, month),
        keys.login(request.recipient_email),
        HeldGiftsIndex.key(emailKey(request.recipient_email)),
        keys.user(buyerUserId),
      ],
      { consistent: true },
    ),
  ]);
  const merchant = Merchant.from(merchantItem);
  if (!merchant) throw invalid('merchant_id', 'Merchant not found', 'not_found');
  const card = await buyerCard(buyerUserId, buyerItem);
  if (!card) throw invalid('base', 'Add a credit card to buy gift cards', 'no_credit_card');
  const limits = chargeLimitsFrom([appItem, userMonth, merchantMonth], merchant, month);
  refuseOverLimits(limits, request.value_amount, 'gift_card_value_order');
  if (recipientUserId(login) === undefined && heldCount(heldIndex) >= MAX_HELD_GIFTS_PER_EMAIL) throw TOO_MANY_HELD();

  const uuid = newUuid();
  const charge = await paymentGateway().charge({
    gatewayToken: card.gatewayToken,
    amount: request.value_amount,
    allowPartial: false,
    idempotencyKey: `gcorder:${uuid}:charge`,
  });
  if (!charge.ok) throw invalid('base', 'Sorry. We cannot charge the credit card at this time.', charge.reason);

  const createdAt = new Date();
  const now = isoSeconds(createdAt);
  let recipientId = recipientUserId(login);
  // The recipient's account may appear (or its email move) between the read and the commit: the hold's guard
  // (the email has no user's login) then fails, and the order is built again for the account that has it.
  for (let attempt = 1; ; attempt++) {
    const order: GiftCardValueOrder = {
      uuid,
      buyer_user_id: buyerUserId,
      recipient_user_id: recipientId ?? null,
      merchant_id: merchant.merchant_id,
      value_amount: request.value_amount,
      charge_id: charge.chargeId,
      recipient_email: request.recipient_email,
      recipient_name: request.recipient_name ?? null,
      recipient_message: request.recipient_message ?? null,
      state: recipientId === undefined ? 'held' : 'delivered',
      held_until: recipientId === undefined ? heldUntil(createdAt) : null,
      created_at: now,
    };
    const batch = orderItems(order, merchant, { limits, now });
    const stored = storeResponse?.(order);
    if (stored) batch.add('idempotency', stored);

    const outcome = await transactWrite(() => batch.items).catch(async (error: unknown) => {
      // The answer may be lost after the order committed: then it stands (and its charge with it).
      if (isTransientDbError(error) && (await orderExists(uuid))) return { committed: true } as const;
      await giveBack(charge.chargeId, uuid, request.value_amount);
      throw error;
    });
    if (outcome.committed) return order;
    const failed = batch.failedLabels(outcome.reasons);
    if (failed.has('recipient') && attempt < 3) {
      const [current] = await readItems([keys.login(request.recipient_email)], { consistent: true });
      recipientId = recipientUserId(current);
      continue;
    }
    await giveBack(charge.chargeId, uuid, request.value_amount);
    // Another charge of the buyer used this month's room first: the same refusal as if it had been read.
    if (failed.has('charge_limit')) throw OVER_MONTHLY_LIMIT('gift_card_value_order');
    if (failed.has('held_index')) throw TOO_MANY_HELD();
    throw conflict('This gift card order is being processed by another request; retry shortly.', 1, 'gift_card_value_order', 'in_progress');
  }
}

/**
 * The order's one transaction: the order, the charge on the buyer's card account, the value (loaded on the
 * recipient's gift card, or held for their email), the month's charge counters and the recipient's email.
 */
function orderItems(order: GiftCardValueOrder, merchant: MerchantItem, context: { limits: ReturnType<typeof chargeLimitsFrom>; now: string }): LabelledItems {
  const { now } = context;
  const reference = { gift_card_value_order_uuid: order.uuid };
  const batch = new LabelledItems();
  batch.add(
    'order',
    GiftCardValueOrderRecord.at(order.uuid).putNew({
      ...keys.buyerGiftCardOrdersIndex(order.buyer_user_id, order.created_at, order.uuid),
      ...order,
      updated_at: now,
    }),
  );
  batch.add(
    'card',
    ...balanceChangeItems(
      cardAccountKey(order.buyer_user_id, order.merchant_id),
      [
        {
          kind: 'card_charge',
          amount: order.value_amount,
          entryId: `gcorder:${order.uuid}:card_charge`,
          reference: { ...reference, charge_id: order.charge_id },
        },
      ],
      { now },
    ),
  );
  if (order.recipient_user_id === null) addHoldItems(batch, order, now);
  else {
    batch.add(
      'gift_card',
      // The recipient's value comes from what the buyer paid, not from the merchant's till.
      ...giftOrderTransfer(
        giftCardAccountKey(order.recipient_user_id, order.merchant_id),
        order,
        { kind: 'gift_card_load', amount: order.value_amount, entryId: `gcorder:${order.uuid}`, reference },
        now,
      ),
    );
  }
  batch.add('charge_limit', ...countChargeItems(context.limits, order.buyer_user_id, order.merchant_id, order.value_amount, now));
  batch.add('mail', mailItem(`gcorder:${order.uuid}`, recipientMail(order, merchant), now));
  return batch;
}

async function orderExists(uuid: string): Promise<boolean> {
  return (await GiftCardValueOrderRecord.at(uuid).get({ consistent: true })) !== undefined;
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
  const where =
    order.state === 'held'
      ? `It is waiting for you: sign up with this email address (${order.recipient_email}) by ${order.held_until?.slice(0, 10)} and it will be on your account, ready to pay with your QR code.`
      : 'It is on your account now: pay with your QR code there.';
  const lines = [greeting, `You have been sent a ${value} gift card for ${merchant.name}. ${where}`];
  if (order.recipient_message) lines.push(`Their message: ${order.recipient_message}`);
  return {
    to: order.recipient_email,
    subject: `A ${value} gift card for ${merchant.name}`,
    text: lines.join('\n\n'),
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
  };
}

/** How the buyer sees an order's state: the value reached the recipient, waits for them, or came back. */
const BUYER_STATE: Record<GiftCardValueOrderState, 'delivered' | 'pending' | 'refunded'> = {
  delivered: 'delivered',
  claimed: 'delivered',
  held: 'pending',
  returning: 'refunded',
  returned: 'refunded',
};

export const GIFT_CARD_ORDERS_PAGE_SIZE = 25;
const BUYER_LIST_SORT = /^GCORDER#[^#]+#[0-9a-f-]+$/;

/** Whether a decoded cursor is a position of the buyer's list (an index sort key). */
export function isGiftCardOrdersCursor(position: string): boolean {
  return position.length <= 120 && BUYER_LIST_SORT.test(position);
}

/**
 * One page of the gift card orders a user bought, newest first (the gsi1 index of the buyer), each with the
 * state the buyer follows: a gift for an email with no account shows `pending` until it is claimed or returned.
 */
export async function listBuyerGiftCardOrders(
  buyerUserId: number,
  cursor: string | undefined,
): Promise<{ orders: GiftCardValueOrder[]; nextCursor: string | undefined }> {
  const partition = keys.buyerGiftCardOrders(buyerUserId);
  const page = await db().send(
    new QueryCommand({ ...newestFirstQuery('gsi1', { pk: partition.gsi1pk, skPrefix: partition.skPrefix }, cursor), Limit: GIFT_CARD_ORDERS_PAGE_SIZE }),
  );
  const orders = (page.Items ?? []).flatMap((item) => GiftCardValueOrderRecord.from(item) ?? []);
  return { orders, nextCursor: orders.at(-1)?.gsi1sk };
}

export function serializeBuyerGiftCardOrder(order: GiftCardValueOrder) {
  const state = BUYER_STATE[order.state] ?? 'delivered';
  return {
    gift_card_value_order: {
      uuid: order.uuid,
      merchant_id: order.merchant_id,
      value_amount: order.value_amount,
      recipient_email: order.recipient_email,
      recipient_name: order.recipient_name ?? null,
      state,
      pending_until: state === 'pending' ? order.held_until : null,
      created_at: order.created_at,
    },
  };
}
