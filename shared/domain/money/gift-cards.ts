/**
 * Gift card value additions. Value is held per holder (the user the QR code names) and merchant, in the
 * ledger account `giftcard:<user>:<merchant>`. An addition with an external_identifier is idempotent:
 * its idempotency record, the addition, the ledger entry and the new balance are one transaction, so a
 * repeat (even concurrent, even with another value_amount) finds the first one's stored response.
 */
import { defineEntity } from '#shared/db/entity.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF, isTransientDbError } from '#shared/db/transient.ts';
import { conflict, unprocessable } from '#shared/errors.ts';
import { readItems } from '#shared/db/reads.ts';
import type { FirstAnswer } from '#shared/domain/money/idempotency.ts';
import { Balance, balanceChangeItems, giftCardAccountKey } from '#shared/domain/money/ledger.ts';
import { userIdForPaymentToken } from '#shared/domain/cards/payment-tokens.ts';
import { eventCounterKey, giftCardResource, merchantAudience, recordEvent } from '#shared/domain/events/catalogue.ts';
import { isoSeconds } from '#shared/time.ts';
import type { GiftCardValueAdditionRequest } from '#shared/schemas/money.ts';
import { recordGiftCardLoad } from '#shared/metrics.ts';

export const MIN_GIFT_CARD_LOAD = 1000;
export const MAX_GIFT_CARD_LOAD = 50_000;

/** A POS gift card value addition (POST /v15/gift_card_value_additions). */
export const GiftCardAddition = defineEntity<{
  uuid: string;
  merchant_id: number;
  user_id: number;
  value_amount: number;
  external_identifier: string | null;
  location_id: number | null;
  order_uuid: string | null;
  tender_types: string[];
  type: string | null;
  identifier_from_merchant: string | null;
  created_at: string;
  updated_at: string;
}>()({ entity: 'GiftCardAddition', key: keys.giftCardAddition });

/** An addition's external_identifier at its merchant: at most one addition each, and the first one's answer. */
export const GiftCardExternalIdentifier = defineEntity<{ addition_uuid: string } & FirstAnswer>()({
  entity: 'GiftCardExternalIdentifier',
  key: keys.giftCardExternalIdentifier,
});

export interface GiftCardAdditionResponse {
  gift_card_value_addition: {
    added_value_amount: number;
    new_value_at_merchant_amount: number;
    old_value_at_merchant_amount: number;
    uuid: string;
  };
}

/** A gift card's value at one merchant as a change of it reads it: its balance and version, and the gift card's event counter. */
export interface GiftCardValue {
  merchantId: number;
  userId: number;
  balance: number;
  version: number;
  eventCounter: Record<string, unknown> | null;
}

/** The balance and the gift card's event counter: one consistent BatchGetItem. */
export async function readGiftCardValue(merchantId: number, userId: number): Promise<GiftCardValue> {
  const [balanceItem, eventCounter] = await readItems(
    [Balance.key(giftCardAccountKey(userId, merchantId)), eventCounterKey(giftCardResource(merchantId, userId))],
    { consistent: true },
  );
  const stored = Balance.from(balanceItem);
  return { merchantId, userId, balance: stored?.balance ?? 0, version: stored?.version ?? 0, eventCounter: eventCounter ?? null };
}

/** The event of a change of the gift card's value, to its merchant, numbered from the counter `card` read. */
export function giftCardValueEvent(
  type: 'gift_card.value_added' | 'gift_card.value_removed',
  card: GiftCardValue,
  data: Record<string, unknown>,
): Promise<TransactItem[]> {
  return recordEvent(
    type,
    giftCardResource(card.merchantId, card.userId),
    merchantAudience(card.merchantId),
    { ...data, loyalty_id: card.userId },
    { counter: card.eventCounter },
  );
}

function validateAmount(valueAmount: number): void {
  if (valueAmount <= 0) throw unprocessable('gift_cards/value_adder', 'base', 'You must load a positive amount.');
  if (valueAmount > MAX_GIFT_CARD_LOAD)
    throw unprocessable('gift_cards/value_adder', 'base', 'Maximum amount that can be added to a gift card at once is $500.00');
  // The contract's limit table has a $10 minimum but no message; ours mirrors the maximum's wording.
  if (valueAmount < MIN_GIFT_CARD_LOAD)
    throw unprocessable('gift_cards/value_adder', 'base', 'Minimum amount that can be added to a gift card at once is $10.00', 'below_minimum');
}

async function storedResponse(merchantId: number, externalIdentifier: string): Promise<GiftCardAdditionResponse | undefined> {
  const stored = (await GiftCardExternalIdentifier.at(merchantId, externalIdentifier).get({ consistent: true }))?.response_json;
  return typeof stored === 'string' ? (JSON.parse(stored) as GiftCardAdditionResponse) : undefined;
}

/** Rounds a load tries against concurrent loads to the same card before answering 409 (the client retries). */
const RETRIES = 10;

/** Lost every round to concurrent loads of the same card: nothing loaded; a retry can succeed. */
export const CARD_BUSY = () => conflict('This gift card is being loaded by other requests; retry shortly.', 1, 'gift_card_value_addition', 'in_progress');
/** The request's Idempotency-Key was taken over (its lease expired) while it loaded: nothing loaded. */
const KEY_TAKEN_OVER = () => conflict('A request with this Idempotency-Key is still in progress; retry later.', 1);

async function additionExists(uuid: string): Promise<boolean> {
  return (await GiftCardAddition.at(uuid).get({ consistent: true })) !== undefined;
}

/**
 * Loads value onto the gift card of the user the QR code names, at the merchant; answers old and new value.
 * `storeResponse` builds the Idempotency-Key's COMPLETED record (shared/http/idempotency.ts), committed with the load.
 */
export async function addGiftCardValue(
  merchantId: number,
  addition: GiftCardValueAdditionRequest,
  storeResponse?: (response: GiftCardAdditionResponse) => TransactItem | undefined,
): Promise<GiftCardAdditionResponse> {
  const externalIdentifier = addition.external_identifier || undefined;
  // A repeat answers the first response before anything else (contract idempotency rule 2). The happy
  // path does not read the record up front: the transaction's `attribute_not_exists` on it finds a repeat
  // (then the stored response is read, below). Only a request about to be refused looks first, so a
  // repeat with an invalid value_amount or QR code still gets the first response.
  const refuse = async (error: Error): Promise<GiftCardAdditionResponse> => {
    const previous = externalIdentifier ? await storedResponse(merchantId, externalIdentifier) : undefined;
    if (previous) return previous;
    throw error;
  };
  try {
    validateAmount(addition.value_amount);
  } catch (error) {
    return refuse(error as Error);
  }
  const userId = await userIdForPaymentToken(addition.payment_token_data);
  if (userId === undefined) return refuse(unprocessable('gift_card_value_addition', 'base', 'You cannot add value to this QR code.'));

  const account = giftCardAccountKey(userId, merchantId);
  const uuid = newUuid();
  for (let attempt = 1; attempt <= RETRIES; attempt++) {
    const now = isoSeconds();
    const current = await readGiftCardValue(merchantId, userId);
    const response: GiftCardAdditionResponse = {
      gift_card_value_addition: {
        added_value_amount: addition.value_amount,
        new_value_at_merchant_amount: current.balance + addition.value_amount,
        old_value_at_merchant_amount: current.balance,
        uuid,
      },
    };
    const batch = new LabelledItems();
    if (externalIdentifier) {
      batch.add(
        'external_identifier',
        GiftCardExternalIdentifier.at(merchantId, externalIdentifier).putNew({
          addition_uuid: uuid,
          response_json: JSON.stringify(response),
          created_at: now,
        }),
      );
    }
    batch.add(
      'addition',
      GiftCardAddition.at(uuid).putNew({
        uuid,
        merchant_id: merchantId,
        user_id: userId,
        value_amount: addition.value_amount,
        external_identifier: externalIdentifier ?? null,
        location_id: addition.location_id ?? null,
        order_uuid: addition.order_uuid ?? null,
        tender_types: addition.tender_types ?? [],
        type: addition.type ?? null,
        identifier_from_merchant: addition.identifier_from_merchant ?? null,
        created_at: now,
        updated_at: now,
      }),
    );
    // The version guard makes old/new balance in the response exact even with concurrent loads.
    batch.add(
      'balance',
      ...balanceChangeItems(
        account,
        [{ kind: 'gift_card_load', amount: addition.value_amount, entryId: `gcadd:${uuid}`, reference: { addition_uuid: uuid } }],
        {
          expectedVersion: current.version,
          now,
        },
      ),
    );
    batch.add('event', ...(await giftCardValueEvent('gift_card.value_added', current, response.gift_card_value_addition)));
    const stored = storeResponse?.(response);
    if (stored) batch.add('idempotency', stored);
    const outcome = await transactWrite(() => batch.items, 1).catch(async (error: unknown) => {
      // The answer may be lost after the addition committed: our uuid's addition then exists.
      if (isTransientDbError(error) && (await additionExists(uuid))) return { committed: true } as const;
      throw error;
    });
    const failed = outcome.committed ? undefined : batch.failedLabels(outcome.reasons);
    // Committed, or this addition's own uuid already exists: our transaction, re-sent after its answer was lost, committed.
    if (!failed || failed.has('addition')) {
      recordGiftCardLoad(addition.value_amount);
      return response;
    }
    if (failed.has('idempotency')) throw KEY_TAKEN_OVER();
    if (externalIdentifier && failed.has('external_identifier')) {
      // Another request with this external_identifier won; its response is ours. The record was
      // committed with the winner's transaction, so a consistent read sees it (retry covers the gap
      // between a cancelled transaction and a still-committing winner).
      for (let read = 1; read <= 10; read++) {
        const winner = await storedResponse(merchantId, externalIdentifier);
        if (winner) return winner;
        await backoff(read, CONTENTION_BACKOFF);
      }
    }
    // Lost a race on the balance version (or a transaction conflict): re-read and try again.
    await backoff(attempt, CONTENTION_BACKOFF);
  }
  // Concurrent loads of this card kept winning: a 409 with Retry-After (never stored under an Idempotency-Key).
  throw CARD_BUSY();
}
