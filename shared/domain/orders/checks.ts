/**
 * Remote checks (docs/pos.md "Remote checks"): the POS publishes an open check and shows its QR code, the
 * customer's app claims it (the check is then theirs: a pending order), the POS reads the pending order's
 * discount and finalises it. Finalisation is the settlement saga of every completed order (settlement.ts):
 * the check is the settlement source, `claimed` -> `completed`, so it is charged exactly once.
 *
 *   open --claim (user)--> claimed --finalise (POS)--> completed
 *   open/claimed --update (POS, no settlement in flight)--> same state, new terms
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomInt } from 'node:crypto';
import { db, isConditionFailure } from '#shared/db/client.ts';
import { above, and, equals, itemExists, oneOf, stateIs } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems, type StoredItem } from '#shared/db/reads.ts';
import { createItem, type TransactItem } from '#shared/db/transactions.ts';
import { conflict, notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { creditAccountKey } from '#shared/domain/money/ledger.ts';
import { getLocation, type LocationItem } from '#shared/domain/merchants/locations.ts';
import { Merchant } from '#shared/domain/merchants/merchants.ts';
import type { CheckOrderRequest, CheckRequest } from '#shared/schemas/pos.ts';
import type { OrderItem } from '#shared/schemas/money.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';
import { noClaimRuns, type SettlementSourceAttributes } from './lease.ts';
import { availableDiscount } from './payment-split.ts';
import { posOrderTerms, validateIdentifierFromMerchant } from './proposals.ts';
import type { OrderRecord } from './record.ts';
import { requireMerchantsLocation } from './parties.ts';
import { settleOrder } from './settlement.ts';
import { appOf } from './user-orders.ts';
import { detailItem } from './views.ts';

export const CHECK_OPEN = 'open';
export const CHECK_CLAIMED = 'claimed';
export const CHECK_COMPLETED = 'completed';
type CheckState = typeof CHECK_OPEN | typeof CHECK_CLAIMED | typeof CHECK_COMPLETED;

/** A check lives a day: an unpaid one then disappears (DynamoDB TTL; reads check expiry too). */
export const CHECK_LIFETIME_SECONDS = 24 * 3600;

/** Locator characters: no 0/O or 1/I, so staff can read it out. */
const LOCATOR_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

interface CheckAttributes extends SettlementSourceAttributes {
  uuid: string;
  locator: string;
  state: CheckState;
  merchant_id: number;
  merchant_name: string;
  location_id: number;
  /** The location as it was published (the order keeps its columns): finalisation reads no location. */
  location: LocationItem;
  spend_amount: number;
  tax_amount: number;
  exemption_amount: number;
  partial_authorization_allowed: boolean;
  cashier: string | null;
  register: string | null;
  identifier_from_merchant: string | null;
  items: OrderItem[];
  /** Set by the claim: the customer, their app, the pending order's uuid (the settlement's source uuid). */
  user_id?: number;
  user_app_id?: number;
  pending_order_uuid?: string;
  tip_amount?: number;
  promoted_card_id?: number | null;
  created_at: string;
  updated_at: string;
  /** Epoch seconds: DynamoDB's TTL removes an unpaid check after this; reads treat it as gone already. */
  ttl: number;
}

/** A remote check as stored (`keys.check(uuid)`): the settlement source of its finalisation. */
const Check = defineEntity<CheckAttributes>()({ entity: 'Check', key: keys.check });
export type CheckItem = EntityItem<typeof Check>;

/** The check has not expired at `now` (epoch seconds). */
const checkIsLive = (now: number) => above('ttl', now);
/**
 * A check's terms may change at `now`: it is the merchant's at that location, live, open or claimed, and no
 * settlement's claim runs on it (the order must be charged for the terms it read).
 */
const termsMayChange = (merchantId: number, locationId: number, now: number) =>
  and(
    itemExists,
    equals('merchant_id', merchantId),
    equals('location_id', locationId),
    checkIsLive(now),
    oneOf('state', [CHECK_OPEN, CHECK_CLAIMED]),
    noClaimRuns(now),
  );

const CHECK_NOT_FOUND = () => notFound();
const NOT_THIS_MERCHANT = () => unauthorized('Not authorized to use checks of this merchant.', 'check', 'merchant_token');
const LOCATION_NOT_FOUND = () => unprocessable('check', 'location_id', "Location can't be blank", 'not_found');
const ALREADY_PAID = () => unprocessable('check', 'base', 'This check has been paid; publish a new check.', 'already_completed');
const NOT_CLAIMED = () => unprocessable('check', 'base', 'No customer has claimed this check yet.', 'not_claimed');
const SETTLING = () => conflict('This check is being paid; retry shortly.', 1, 'check', 'in_progress');

function newLocator(): string {
  return Array.from({ length: 6 }, () => LOCATOR_ALPHABET[randomInt(LOCATOR_ALPHABET.length)]).join('');
}

/** The check, unless it expired (DynamoDB's TTL removes an expired item only some time later). */
const live = (check: CheckItem | undefined): CheckItem | undefined => (check !== undefined && check.ttl > epochSeconds() ? check : undefined);

async function readCheck(uuid: string): Promise<CheckItem | undefined> {
  return live(await Check.at(uuid).get({ consistent: true }));
}

/** Sends one of Check's updates on its own, answering the check as the update left it. */
async function sendCheckUpdate(update: TransactItem): Promise<CheckItem> {
  const result = await db().send(new UpdateCommand({ ...update.Update!, ReturnValues: 'ALL_NEW' }));
  return Check.from(result.Attributes)!;
}

/** The merchant's own live check, or 404 (no such check) / 401 (another merchant's). */
function requireMerchantCheck(check: CheckItem | undefined, merchantId: number): CheckItem {
  if (!check) throw CHECK_NOT_FOUND();
  if (check.merchant_id !== merchantId) throw NOT_THIS_MERCHANT();
  return check;
}

function checkTerms(request: CheckRequest) {
  validateIdentifierFromMerchant(request.identifier_from_merchant, 'check');
  return posOrderTerms(request);
}

/**
 * `write` and `work` together: `work` (pure CPU: a check's QR code, ~10-20 ms on a cold start) runs while the
 * write is in flight, and the two results come back only once the write has settled. A failed write answers as
 * it did when the work came after it (its error, whatever the work did); a work error after a landed write is
 * the work's. The write's rejection is handled from the start (one arriving while the work runs must not end
 * the invocation). Shared by publishCheck (PutItem) and updateCheck (UpdateItem).
 */
async function whileWriting<Written, Work>(write: Promise<Written>, work: () => Work): Promise<[Written, Work]> {
  write.catch(() => undefined);
  // The SDK builds, signs and sends the request over a few promise turns: let them run before `work`
  // takes the thread, so that the round trip and the work overlap.
  await new Promise((resolve) => setImmediate(resolve));
  let done: Work;
  try {
    done = work();
  } catch (error) {
    await write;
    throw error;
  }
  return [await write, done];
}

/**
 * PUT /v15/checks: publishes an open check at one of the merchant's locations, and answers what `present`
 * makes of it. `present` (the QR code) runs while the check's write is in flight (whileWriting), and its
 * answer is returned only once the write has landed: a failed write answers as it did before (its error,
 * whatever `present` did), and nothing is written that the answer does not describe.
 */
export async function publishCheck<Answer>(merchantId: number, request: CheckRequest, present: (check: CheckItem) => Answer): Promise<Answer> {
  const terms = checkTerms(request);
  // Another merchant's location: 401, as for its checks (issue 34.3); one that does not exist: 422.
  const location = requireMerchantsLocation(merchantId, await getLocation(request.location_id), LOCATION_NOT_FOUND);
  const now = isoSeconds();
  const uuid = newUuid();
  const check = Check.at(uuid).item({
    uuid,
    locator: newLocator(),
    state: CHECK_OPEN,
    merchant_id: merchantId,
    merchant_name: location.merchant_name ?? '',
    location_id: location.location_id,
    location,
    ...terms,
    created_at: now,
    updated_at: now,
    ttl: epochSeconds() + CHECK_LIFETIME_SECONDS,
  });
  // The uuid is new: only our own write, re-sent after its answer was lost, can already be there.
  // Spread: createItem takes a plain record.
  const written = createItem({ ...check }, { resend: true });
  const [, answer] = await whileWriting(written, () => present(check));
  return answer;
}

/**
 * PUT /v15/checks/:uuid: new terms for an open or claimed check of the same location, never while a
 * settlement holds it (the order must be charged for the terms it read) and never once paid. Answers the
 * updated check and what `draw` makes of its uuid (the QR code, which depends on the uuid alone), drawn while
 * the UpdateItem is in flight (whileWriting): a refused update answers its error as before.
 */
export async function updateCheck<Drawn>(merchantId: number, uuid: string, request: CheckRequest, draw: (uuid: string) => Drawn): Promise<[CheckItem, Drawn]> {
  const terms = checkTerms(request);
  return whileWriting(writeCheckTerms(merchantId, uuid, request, terms), () => draw(uuid));
}

async function writeCheckTerms(merchantId: number, uuid: string, request: CheckRequest, terms: ReturnType<typeof checkTerms>): Promise<CheckItem> {
  const now = epochSeconds();
  try {
    return await sendCheckUpdate(
      Check.at(uuid).update(
        {
          set: {
            spend_amount: terms.spend_amount,
            tax_amount: terms.tax_amount,
            exemption_amount: terms.exemption_amount,
            partial_authorization_allowed: terms.partial_authorization_allowed,
            cashier: terms.cashier,
            register: terms.register,
            identifier_from_merchant: terms.identifier_from_merchant,
            items: terms.items,
            updated_at: isoSeconds(),
          },
        },
        termsMayChange(merchantId, request.location_id, now),
      ),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const check = requireMerchantCheck(await readCheck(uuid), merchantId);
    if (check.state === CHECK_COMPLETED) throw ALREADY_PAID();
    if (check.location_id !== request.location_id)
      throw unprocessable('check', 'location_id', "A check's location cannot change; publish a new check.", 'immutable');
    throw SETTLING();
  }
}

export interface CheckView {
  check: CheckItem;
  /** Credit the POS may apply (claimed checks); null before a claim and once paid. */
  discountAmount: number | null;
}

/** The discount a claimed check's customer can apply now: their credit at the merchant, within the check. */
async function withDiscount(check: CheckItem, creditItem?: StoredItem): Promise<CheckView> {
  if (check.state !== CHECK_CLAIMED || check.user_id === undefined) return { check, discountAmount: null };
  const credit = creditItem ?? (await readItems([keys.balance(creditAccountKey(check.user_id, check.merchant_id))], { consistent: true }))[0];
  return { check, discountAmount: availableDiscount(Number(credit?.balance ?? 0), check.spend_amount, check.exemption_amount) };
}

/** GET /v15/checks/:uuid: the POS polls its check until a customer has claimed it (pending_order). */
export async function getMerchantCheck(merchantId: number, uuid: string): Promise<CheckView> {
  return withDiscount(requireMerchantCheck(await readCheck(uuid), merchantId));
}

/**
 * POST /v15/checks/:uuid/orders with a user token: the customer claims the check they scanned. Once claimed
 * it is theirs: the same user claiming again gets it back; anyone else finds no such check (404), as for
 * any other user's resource. The user's app must serve the merchant.
 */
export async function claimCheck(user: { userId: number; appId: number }, uuid: string, request: CheckOrderRequest): Promise<CheckView> {
  const [check, app] = await Promise.all([readCheck(uuid), appOf(user.appId)]);
  if (!check || !app || !(app.global || app.merchant_ids.includes(check.merchant_id))) throw CHECK_NOT_FOUND();
  if (check.state !== CHECK_OPEN) {
    if (check.user_id !== user.userId) throw CHECK_NOT_FOUND();
    if (check.state === CHECK_COMPLETED) return { check, discountAmount: null };
    return withDiscount(check);
  }
  // The customer's credit (the discount shown) and promoted card (finalisation batches it with the balances).
  const [creditItem, userItem] = await readItems([keys.balance(creditAccountKey(user.userId, check.merchant_id)), keys.user(user.userId)], {
    consistent: true,
  });
  try {
    const claimed = await sendCheckUpdate(
      Check.at(uuid).update(
        {
          set: {
            state: CHECK_CLAIMED,
            user_id: user.userId,
            user_app_id: user.appId,
            pending_order_uuid: newUuid(),
            tip_amount: request.tip_amount,
            promoted_card_id: typeof userItem?.promoted_card_id === 'number' ? userItem.promoted_card_id : null,
            updated_at: isoSeconds(),
          },
        },
        and(stateIs(CHECK_OPEN), checkIsLive(epochSeconds())),
      ),
    );
    return withDiscount(claimed, creditItem ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Another claim won the race: ours only if it was this user's own (a re-sent claim).
    const current = await readCheck(uuid);
    if (current?.user_id !== user.userId) throw CHECK_NOT_FOUND();
    return withDiscount(current);
  }
}

/**
 * POST /v15/checks/:uuid/orders with a merchant token: the POS finalises the claimed check with its final
 * spend, tax and applied discount. The settlement saga charges the customer exactly once per check; the
 * check's own terms (items, exemption, partial authorization, POS fields) and the customer's tip complete it.
 */
export async function finaliseCheck(
  merchantId: number,
  uuid: string,
  request: CheckOrderRequest,
  storeResponse?: (order: OrderRecord) => TransactItem | undefined,
): Promise<OrderRecord> {
  if (request.spend_amount === undefined || request.spend_amount === null) throw unprocessable('order', 'spend_amount', "Spend amount can't be blank", 'blank');
  const [checkItem, merchantItem] = await readItems([keys.check(uuid), keys.merchant(merchantId)], { consistent: true });
  const check = requireMerchantCheck(live(Check.from(checkItem)), merchantId);
  if (check.state === CHECK_OPEN || check.user_id === undefined || check.pending_order_uuid === undefined) throw NOT_CLAIMED();
  const merchant = Merchant.from(merchantItem);
  if (!merchant) throw LOCATION_NOT_FOUND();
  return settleOrder({
    kind: 'in_store',
    source: { key: keys.check(uuid), fromState: CHECK_CLAIMED, toState: CHECK_COMPLETED, state: check.state, uuid: check.pending_order_uuid },
    merchant,
    location: check.location,
    userId: check.user_id,
    appId: check.user_app_id ?? 0,
    promotedCardId: check.promoted_card_id ?? null,
    terms: {
      spend_amount: request.spend_amount,
      tax_amount: request.tax_amount,
      tip_amount: check.tip_amount ?? 0,
      applied_discount_amount: request.applied_discount_amount,
      exemption_amount: check.exemption_amount,
      partial_authorization_allowed: check.partial_authorization_allowed,
      discount_only: false,
      items: check.items,
      fees: [],
      identifier_from_merchant: check.identifier_from_merchant,
      cashier: check.cashier,
      register: check.register,
      receipt_message_html: null,
    },
    // The check is its finalisation's natural key: a POS re-sending it after a lost answer gets the order.
    answersRepeats: true,
    storeResponse,
  });
}

// ---------------------------------------------------------------------------------------------
// Views

export function serializeCheck({ check, discountAmount }: CheckView) {
  return {
    check: {
      uuid: check.uuid,
      locator: check.locator,
      state: check.state,
      location_id: check.location_id,
      merchant_name: check.merchant_name,
      spend_amount: check.spend_amount,
      tax_amount: check.tax_amount,
      exemption_amount: check.exemption_amount,
      items: check.items.map(detailItem),
      // Absent, not null, until a customer claims the check: the C# SDK reads a present `pending_order` as claimed (issue 34.12).
      ...(check.pending_order_uuid
        ? { pending_order: { uuid: check.pending_order_uuid, discount_amount: discountAmount, tip_amount: check.tip_amount ?? 0 } }
        : {}),
      completed_order_uuid: check.completed_order_uuid ?? null,
    },
  };
}
