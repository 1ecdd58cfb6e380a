/**
 * Held gifts: gift card value bought (gift-card-orders.ts) for an email that has no account yet. The buyer is
 * charged once, as for any gift; the value waits in the ledger as a liability, `held:<emailKey>:<merchantId>`
 * (a transfer from `purchases:<buyer>:<merchant>`), until:
 * - an account gets that email (created, or an existing account changes its email to it: users.ts). The
 *   transaction that writes the email's login item also moves every held gift to that account's gift card
 *   (`held` -> `giftcard`, one transfer per gift) and marks the orders claimed: exactly once, because two
 *   accounts can never both write the login (its put is guarded), and because that transaction is guarded by
 *   the version of the email's index of held gifts (`keys.heldGifts`), which every new hold changes: a hold
 *   that commits between the claim's read and its write makes the claim try again, and a hold whose email
 *   got its login first fails its own guard (the login must be absent) and becomes an ordinary gift;
 * - or, unclaimed after UNCLAIMED_GIFT_DAYS, it goes back to the buyer's card (`returnUnclaimedGifts`, the
 *   operators' daily `npm run admin -- gifts-return-unclaimed`; docs/money.md, "Held gifts").
 */
import { db, table } from '#shared/db/client.ts';
import { attributeMissing, differs, equals, itemIsNew, or, sizeBelow, stateIs } from '#shared/db/conditions.ts';
import { Login } from '#shared/domain/identity/entities.ts';
import { keys } from '#shared/db/keys.ts';
import { mailItem } from '#shared/db/mail-outbox.ts';
import { readItems, scanAll, type StoredItem } from '#shared/db/reads.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sha256 } from '#shared/auth/secrets.ts';
import { log } from '#shared/log.ts';
import { escapeHtml } from '#shared/mail/mailer.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import { balanceChangeItems, cardAccountKey, giftCardAccountKey, purchasesAccountKey, type Movement } from '#shared/domain/money/ledger.ts';
import { GiftCardValueOrderRecord, HeldGiftsIndex, type GiftCardValueOrderState } from '#shared/domain/money/entities.ts';
import { isoSeconds } from '#shared/time.ts';

/**
 * Gifts that may wait for one email at once. A claim moves them all in the transaction that writes the email's
 * login (DynamoDB's 100 items: 5 per gift at most, beside the account's own), and a real person is rarely sent
 * more before they sign up.
 */
export const MAX_HELD_GIFTS_PER_EMAIL = 10;
/** How long a held gift waits for its recipient before it goes back to the buyer's card. */
export const UNCLAIMED_GIFT_DAYS = 60;

/** An email as its login item keys it (keys.login): trimmed, lower-cased. */
export function normalisedEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The email's hash: held accounts and the index are keyed by it (no email in a ledger key, and no `:`). */
export function emailKey(email: string): string {
  return sha256(normalisedEmail(email)).slice(0, 32);
}

export function heldAccountKey(email: string, merchantId: number): string {
  return `held:${emailKey(email)}:${merchantId}`;
}

export function heldUntil(createdAt: Date): string {
  return isoSeconds(new Date(createdAt.getTime() + UNCLAIMED_GIFT_DAYS * 24 * 3600 * 1000));
}

/** What a held gift order must say for its value to be held (a subset of the stored GiftCardValueOrder). */
export interface HeldGiftOrder {
  uuid: string;
  buyer_user_id: number;
  merchant_id: number;
  value_amount: number;
  recipient_email: string;
  charge_id: string;
}

/** How many gifts the index item (read with the order's other items) already holds for the email. */
export function heldCount(index: StoredItem | undefined): number {
  return HeldGiftsIndex.from(index)?.uuids?.size ?? 0;
}

/** A gift card value order's move from `from` (its guard) to `to`, stamped `now`, with what else the move sets. */
function orderMove(
  uuid: string,
  from: GiftCardValueOrderState,
  to: GiftCardValueOrderState,
  now: string,
  set: { recipient_user_id?: number; claimed_at?: string; returned_at?: string } = {},
) {
  return GiftCardValueOrderRecord.at(uuid).update({ set: { state: to, ...set, updated_at: now } }, stateIs(from));
}

/**
 * The order transaction's items that hold its value for the email, each labelled with what it guards:
 * `recipient` (the email still has no user's login), `held_index` (fewer than MAX_HELD_GIFTS_PER_EMAIL wait),
 * `held` (the transfer from the buyer's purchases to the held account).
 */
export function addHoldItems(batch: LabelledItems, order: HeldGiftOrder, now: string): void {
  // A merchant's login may carry the email: no user can ever claim it there, so it waits and goes back.
  batch.add('recipient', Login.at(order.recipient_email).conditionCheck(or(itemIsNew, differs('subject', 'user'))));
  batch.add(
    'held_index',
    HeldGiftsIndex.at(emailKey(order.recipient_email)).update(
      { set: { email: normalisedEmail(order.recipient_email), updated_at: now }, add: { uuids: new Set([order.uuid]), version: 1 }, creates: true },
      or(attributeMissing('uuids'), sizeBelow('uuids', MAX_HELD_GIFTS_PER_EMAIL)),
    ),
  );
  batch.add(
    'held',
    ...giftOrderTransfer(
      heldAccountKey(order.recipient_email, order.merchant_id),
      order,
      { kind: 'gift_held', amount: order.value_amount, entryId: `gcorder:${order.uuid}`, reference: { gift_card_value_order_uuid: order.uuid } },
      now,
    ),
  );
}

/**
 * A gift order's value moving between `account` and what its buyer paid (the buyer's purchases account at the
 * merchant, the transfer's other side): the balance change with its ledger entry.
 */
export function giftOrderTransfer(
  account: string,
  order: Pick<HeldGiftOrder, 'buyer_user_id' | 'merchant_id'>,
  movement: Omit<Movement, 'contra'>,
  now: string,
): TransactItem[] {
  return balanceChangeItems(account, [{ ...movement, contra: purchasesAccountKey(order.buyer_user_id, order.merchant_id) }], { now });
}

/** The gifts held for an email, as read for a claim: the index's version guards the claim's transaction. */
export interface HeldGifts {
  email: string;
  /** undefined: no gift was ever held for the email (the claim's guard is then that none appears). */
  version: number | undefined;
  gifts: HeldGiftOrder[];
}

export async function readHeldGifts(email: string): Promise<HeldGifts> {
  const [read] = await readItems([HeldGiftsIndex.key(emailKey(email))], { consistent: true });
  const index = HeldGiftsIndex.from(read);
  if (!index) return { email, version: undefined, gifts: [] };
  const uuids = [...(index.uuids ?? [])];
  const orders =
    uuids.length === 0
      ? []
      : await readItems(
          uuids.map((uuid) => GiftCardValueOrderRecord.key(uuid)),
          { consistent: true },
        );
  const gifts = orders.flatMap((item) => GiftCardValueOrderRecord.from(item) ?? []).filter((order) => order.state === 'held');
  return { email, version: index.version ?? 0, gifts };
}

/**
 * The items that give every gift held for the email to `userId`, for the transaction that writes the email's
 * login for that user (and so can only commit once). Always at least the guard on the index's version; a
 * cancellation of these items (labelled `held_gifts` by the caller) means read again and retry.
 */
export function claimHeldGiftItems(held: HeldGifts, userId: number, now: string): TransactItem[] {
  const index = HeldGiftsIndex.at(emailKey(held.email));
  if (held.version === undefined) return [index.conditionCheck(attributeMissing('version'))];
  const items: TransactItem[] = [index.delete(equals('version', held.version))];
  const byMerchant = new Map<number, HeldGiftOrder[]>();
  for (const gift of held.gifts) byMerchant.set(gift.merchant_id, [...(byMerchant.get(gift.merchant_id) ?? []), gift]);
  for (const [merchantId, gifts] of byMerchant) {
    const heldAccount = heldAccountKey(held.email, merchantId);
    const giftCard = giftCardAccountKey(userId, merchantId);
    const transfer = (gift: HeldGiftOrder, amount: number, contra: string): Movement => ({
      kind: 'gift_claimed',
      amount,
      entryId: `gcorder:${gift.uuid}:claim`,
      reference: { gift_card_value_order_uuid: gift.uuid },
      contra,
    });
    items.push(
      ...balanceChangeItems(
        heldAccount,
        gifts.map((gift) => transfer(gift, -gift.value_amount, giftCard)),
        { now },
      ),
    );
    items.push(
      ...balanceChangeItems(
        giftCard,
        gifts.map((gift) => transfer(gift, gift.value_amount, heldAccount)),
        { now },
      ),
    );
  }
  for (const gift of held.gifts) {
    items.push(orderMove(gift.uuid, 'held', 'claimed', now, { recipient_user_id: userId, claimed_at: now }));
  }
  return items;
}

/**
 * Writes the email's login (and whatever goes with it) together with the claim of its held gifts: `build`
 * adds the caller's items to a fresh batch; the claim's items are labelled `held_gifts`. A claim that lost to a
 * concurrent hold (or return) reads again and retries; any other refusal is the caller's (`failed` labels).
 */
export async function commitWithHeldGiftClaim(
  email: string,
  userId: number,
  now: string,
  build: (batch: LabelledItems) => void,
  /** The first read, if the caller started it beside its own work. */
  firstRead: Promise<HeldGifts> = readHeldGifts(email),
): Promise<{ committed: true } | { committed: false; failed: Set<string>; reasons: string[] }> {
  for (let attempt = 1; ; attempt++) {
    const held = attempt === 1 ? await firstRead : await readHeldGifts(email);
    const batch = new LabelledItems();
    build(batch);
    batch.add('held_gifts', ...claimHeldGiftItems(held, userId, now));
    const outcome = await transactWrite(() => batch.items);
    if (outcome.committed) return outcome;
    const failed = batch.failedLabels(outcome.reasons);
    // Only the claim's guard failed: a gift was held (or returned) meanwhile. Read it and claim it too.
    if (attempt < 5 && failed.size === 1 && failed.has('held_gifts')) continue;
    return { committed: false, failed, reasons: outcome.reasons };
  }
}

/** What one run of the unclaimed gifts' return did. */
export interface UnclaimedReturn {
  /** Orders whose value went back to the buyer's card in this run. */
  returned: string[];
  /** Orders whose ledger return committed but whose card refund failed: the next run retries the refund. */
  refundPending: string[];
}

/**
 * Gives every gift held longer than UNCLAIMED_GIFT_DAYS back to its buyer (an operators' full scan, run daily).
 * Per gift, one transaction first moves the value `held` -> `purchases` and takes the charge off the buyer's
 * card account (`card_refund`), marks the order `returning` and drops it from the email's index (so a claim
 * racing it fails its version guard and reads again: one of the two wins, never both); then the gateway refund
 * (keyed by the order, so a retry refunds once) and the order becomes `returned`. A run that stops between
 * the two leaves the order `returning`, and the next run refunds it.
 */
export async function returnUnclaimedGifts(now: Date = new Date()): Promise<UnclaimedReturn> {
  const orders = await scanAll({
    TableName: table(),
    FilterExpression: 'entity = :entity AND #state IN (:held, :returning)',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':entity': 'GiftCardValueOrder', ':held': 'held', ':returning': 'returning' },
    ConsistentRead: true,
  });
  const report: UnclaimedReturn = { returned: [], refundPending: [] };
  const stamp = isoSeconds(now);
  for (const order of orders) {
    const gift = GiftCardValueOrderRecord.from(order);
    if (!gift) continue;
    if (gift.state === 'held') {
      if (gift.held_until !== null && gift.held_until > stamp) continue;
      if (!(await returnToLedger(gift, stamp))) continue;
    }
    if (await refundToCard(gift, stamp)) report.returned.push(gift.uuid);
    else report.refundPending.push(gift.uuid);
  }
  return report;
}

async function returnToLedger(gift: HeldGiftOrder, now: string): Promise<boolean> {
  const reference = { gift_card_value_order_uuid: gift.uuid, charge_id: gift.charge_id };
  const batch = new LabelledItems();
  batch.add('order', orderMove(gift.uuid, 'held', 'returning', now));
  batch.add(
    'held_index',
    HeldGiftsIndex.at(emailKey(gift.recipient_email)).update({ deleteFromSet: { uuids: new Set([gift.uuid]) }, add: { version: 1 }, set: { updated_at: now } }),
  );
  batch.add(
    'held',
    ...giftOrderTransfer(
      heldAccountKey(gift.recipient_email, gift.merchant_id),
      gift,
      { kind: 'gift_returned', amount: -gift.value_amount, entryId: `gcorder:${gift.uuid}:return`, reference },
      now,
    ),
  );
  batch.add(
    'card',
    ...balanceChangeItems(
      cardAccountKey(gift.buyer_user_id, gift.merchant_id),
      [{ kind: 'card_refund', amount: -gift.value_amount, entryId: `gcorder:${gift.uuid}:unclaimed_refund`, reference }],
      { now },
    ),
  );
  const value = `$${(gift.value_amount / 100).toFixed(2)}`;
  const buyer = await readItems([keys.user(gift.buyer_user_id)], { consistent: false });
  const buyerEmail = buyer[0]?.email;
  if (typeof buyerEmail === 'string') {
    const text = `The ${value} gift card you sent to ${gift.recipient_email} was not claimed within ${UNCLAIMED_GIFT_DAYS} days, so we have refunded it to your card.`;
    batch.add(
      'mail',
      mailItem(
        `gcorder:${gift.uuid}:returned`,
        { to: buyerEmail, subject: `Your ${value} gift card was refunded`, text, html: `<p>${escapeHtml(text)}</p>` },
        now,
      ),
    );
  }
  const outcome = await transactWrite(() => batch.items);
  // Claimed (or returned by another run) meanwhile: nothing to give back.
  if (!outcome.committed) log('info', 'held_gift_not_returned', { order_uuid: gift.uuid, reasons: outcome.reasons });
  return outcome.committed;
}

async function refundToCard(gift: HeldGiftOrder, now: string): Promise<boolean> {
  const refund = await paymentGateway().refund({
    chargeId: gift.charge_id,
    amount: gift.value_amount,
    idempotencyKey: `gcorder:${gift.uuid}:unclaimed_refund`,
  });
  if (!refund.ok) {
    log('error', 'held_gift_refund_failed', { order_uuid: gift.uuid, charge_id: gift.charge_id });
    return false;
  }
  await retryTransient(() => db().send(new UpdateCommand(orderMove(gift.uuid, 'returning', 'returned', now, { returned_at: now }).Update))).catch(
    (error: unknown) => {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    },
  );
  return true;
}
