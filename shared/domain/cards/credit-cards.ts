import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { byCreation, nextId } from '#shared/db/ids.ts';
import { queryAll, readItems } from '#shared/db/reads.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { and, attributeMissing, equals, itemExists, or, stateIs } from '#shared/db/conditions.ts';
import { User } from '#shared/domain/identity/users.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { appAudience, creditCardResource, eventCounterKey, recordEvent } from '#shared/domain/events/catalogue.ts';
import { conflict, errorDetail, notFound, unauthorized, unprocessable, type ApiError } from '#shared/errors.ts';
import { paymentGateway } from '#shared/payments/index.ts';
import type { CardSource, EncryptedField, VaultFailure, VaultedCard } from '#shared/payments/gateway.ts';
import { isoSeconds } from '#shared/time.ts';
import type { CreditCardBody } from '#shared/schemas/credit-cards.ts';
import { ENCRYPTED_FIELDS, NONCE_FIELDS } from '#shared/schemas/vocabularies.ts';

/**
 * A user's credit cards. Only what the gateway hands back is stored (its token, the card's
 * fingerprint, bin, last 4, expiry and brand): never the nonce, the encrypted fields, a card number,
 * the CVV or the postal code.
 *
 * Invariants, each kept by one DynamoDB transaction per change:
 * - one card (fingerprint) belongs to at most one user at a time: the fingerprint item
 *   `keys.cardFingerprint(fp)` is written with the card and removed when the card is deleted;
 * - a user with an active card has exactly one promoted card, `promoted_card_id` on the user item.
 *   Every card change bumps `cards_version` on the user item and is conditioned on the value it
 *   read, so two concurrent changes cannot both decide promotion from the same stale picture.
 * - adding a card and deleting one are events for the user's app (`credit_card.created`,
 *   `credit_card.deactivated`, docs/events.md), written in the change's own transaction. The user's app
 *   is the one the user registered through (`created_app_id`, read with the card state at no extra cost),
 *   whichever app's token made the change: a card serves the user in every app, and one receiver sees
 *   every event of a card, so its `sequence` has no gaps.
 */

export type CreditCardState = 'active' | 'inactive';

interface CreditCardAttributes {
  user_id: number;
  card_id: number;
  gateway_token: string;
  fingerprint: string;
  bin: string;
  last_4: string;
  expiration_month: number;
  expiration_year: number;
  type: string;
  /** Absent on cards vaulted before the gateway reported it (they are credit cards). */
  debit?: boolean;
  state: CreditCardState;
  created_at: string;
  /** Creation instant in milliseconds: the cards' order (card ids do not follow creation; absent on older items). */
  created_at_ms?: number;
  updated_at: string;
  deactivated_at: string | null;
}

/** A user's card (keys.creditCard): what the gateway vaulted, and whether it is still active. */
export const CreditCard = defineEntity<CreditCardAttributes>()({ entity: 'CreditCard', key: keys.creditCard });
export type CreditCardItem = EntityItem<typeof CreditCard>;

/** A card as its owner sees it: the card plus whether it is the promoted one. */
export interface CreditCardView {
  card: CreditCardAttributes;
  promoted: boolean;
}

/** Which user's card a fingerprint is (keys.cardFingerprint): one owner per card at a time. */
const CardFingerprint = defineEntity<{ user_id: number; card_id: number; created_at: string }>()({
  entity: 'CardFingerprint',
  key: keys.cardFingerprint,
});
type FingerprintItem = EntityItem<typeof CardFingerprint>;

/** The card can still be used, deleted or promoted. */
const cardIsActive = stateIs('active');
/** Taking a fingerprint over: it still names the stale card of the same user that was read. */
const fingerprintStillNames = (userId: number, cardId: number) => and(equals('user_id', userId), equals('card_id', cardId));
/** Releasing a fingerprint: it is gone already, or still names this card (never another user's later claim). */
const fingerprintGoneOrNames = (cardId: number) => or(attributeMissing('pk'), equals('card_id', cardId));

/** The card fields of the user item. `cards_version` is absent until the user's first card change. */
interface UserCardsState {
  promoted_card_id: number | null;
  cards_version: number | undefined;
  /** The app the user registered through: the audience of the user's card events. */
  created_app_id: number;
}

/** Attempts before a change that keeps losing races to the same user's other card changes gives up. */
const MAX_ATTEMPTS = 5;

export const CARD_NOT_FOUND = (): ApiError => notFound(errorDetail('credit_card', 'id', 'Credit card not found.', 'not_found'));
const CARD_OF_ANOTHER_USER = (): ApiError => unprocessable('credit_card', 'number', "Card already associated with another user's account");
const INVALID_EXPIRATION = (): ApiError => unprocessable('credit_card', 'expiration_year', 'Expiration year is invalid.');
const INVALID_NONCE = (field: string): ApiError =>
  unprocessable('credit_card', field, 'Payment nonce is not valid; encrypt the card details again and send the new nonce.', 'invalid');
/** The request field each encrypted card field arrives in (the LevelUp SDKs' names). */
export const ENCRYPTED_FIELD_NAMES: Record<EncryptedField, string> = {
  number: 'encrypted_number',
  cvv: 'encrypted_cvv',
  expirationMonth: 'encrypted_expiration_month',
  expirationYear: 'encrypted_expiration_year',
};

/** The contract's error for each way the gateway refuses a card; `nonceField` names the body field a nonce came in. */
function vaultError(failure: VaultFailure, nonceField: string): ApiError {
  switch (failure.reason) {
    case 'invalid_nonce':
      return INVALID_NONCE(nonceField);
    case 'invalid_expiration':
      return failure.field === 'expiration_year' ? INVALID_EXPIRATION() : unprocessable('credit_card', 'expiration_month', 'Expiration month is invalid.');
    case 'undecryptable':
      return unprocessable(
        'credit_card',
        ENCRYPTED_FIELD_NAMES[failure.field],
        "Encrypted card data could not be decrypted; encrypt the card details again with the payment gateway's client library.",
        'invalid',
      );
    case 'invalid_number':
      return unprocessable('credit_card', 'number', 'Card number is invalid.', 'invalid');
    case 'invalid_cvv':
      return unprocessable('credit_card', 'cvv', 'CVV is invalid.', 'invalid');
  }
}
const CARDS_BUSY = (): ApiError => conflict('Your credit cards are being changed by another request; retry this one.', 1);

export function serializeCreditCard(view: CreditCardView) {
  const { card } = view;
  return {
    credit_card: {
      bin: card.bin,
      debit: card.debit ?? false,
      description: `${card.type} ending in ${card.last_4}`,
      expiration_month: card.expiration_month,
      expiration_year: card.expiration_year,
      id: card.card_id,
      last_4: card.last_4,
      nickname: `${card.type} *${card.last_4}`,
      promoted: view.promoted,
      state: card.state,
      type: card.type,
    },
  };
}

async function readUserCardsState(userId: number): Promise<UserCardsState | undefined> {
  const result = await db().send(
    new GetCommand({
      TableName: table(),
      Key: keys.user(userId),
      ConsistentRead: true,
      ProjectionExpression: 'promoted_card_id, cards_version, created_app_id',
    }),
  );
  if (!result.Item) return undefined;
  return {
    promoted_card_id: (result.Item.promoted_card_id as number | null | undefined) ?? null,
    cards_version: result.Item.cards_version as number | undefined,
    created_app_id: Number(result.Item.created_app_id),
  };
}

async function userCardsState(userId: number): Promise<UserCardsState> {
  const state = await readUserCardsState(userId);
  // A valid token whose user is gone is as good as no token.
  if (!state) throw unauthorized('The access token is invalid.');
  return state;
}

export async function getCreditCard(userId: number, cardId: number): Promise<CreditCardItem | undefined> {
  return CreditCard.at(userId, cardId).get({ consistent: true });
}

async function fingerprintOwner(fingerprint: string): Promise<FingerprintItem | undefined> {
  return CardFingerprint.at(fingerprint).get({ consistent: true });
}

/** Every card of the user, active and inactive, oldest first (by creation time: card ids do not follow it). */
async function allCards(userId: number): Promise<CreditCardItem[]> {
  const prefix = keys.creditCardPrefix(userId);
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': prefix.pk, ':prefix': prefix.skPrefix },
    ConsistentRead: true,
  });
  const cards = items.flatMap((item) => CreditCard.from(item) ?? []);
  return cards.sort(byCreation((card) => card.card_id));
}

/** The user-item update every card change makes: the promoted card and the next cards_version. */
function userCardsUpdate(userId: number, seen: UserCardsState, promotedCardId: number | null, now: string): TransactItem {
  const cardsUnchanged = seen.cards_version === undefined ? attributeMissing('cards_version') : equals('cards_version', seen.cards_version);
  return User.at(userId).update(
    { set: { promoted_card_id: promotedCardId, cards_version: (seen.cards_version ?? 0) + 1, updated_at: now } },
    and(itemExists, cardsUnchanged),
  );
}

/**
 * Has the gateway vault the card (a nonce, or client-side encrypted fields; a bare string is a nonce,
 * as the demo seed and tests pass it) and adds it to the user.
 * - A card the gateway refuses: the contract's 422 for the reason (credit_card/expiration_year, ...).
 * - Another user's card (same fingerprint): 422 credit_card/number.
 * - The user's own active card again: that card is returned unchanged (no duplicate, no new id).
 * - The user's first active card is promoted.
 * - A new card is `credit_card.created` for the user's app.
 * `nonceField` names the body field a nonce came in, for the error of an unusable nonce.
 */
export async function addCreditCard(userId: number, source: CardSource | string, nonceField = 'gateway_payment_nonce'): Promise<CreditCardView> {
  const vaulted = await paymentGateway().vault(typeof source === 'string' ? { kind: 'nonce', nonce: source } : source);
  if (!vaulted.ok) throw vaultError(vaulted, nonceField);
  let cardId: number | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const [owner, seen] = await Promise.all([fingerprintOwner(vaulted.card.fingerprint), userCardsState(userId)]);
    if (owner && owner.user_id !== userId) throw CARD_OF_ANOTHER_USER();
    if (owner) {
      const existing = await getCreditCard(userId, owner.card_id);
      if (existing?.state === 'active') return { card: existing, promoted: seen.promoted_card_id === existing.card_id };
      // A fingerprint item left pointing at a card that is not active is taken over below.
    }
    cardId ??= await nextId('credit_card');
    const card = newCardItem(userId, cardId, vaulted.card);
    const promotedCardId = seen.promoted_card_id ?? card.card_id;
    const fingerprint = { user_id: userId, card_id: card.card_id, created_at: card.created_at };
    const fingerprintItem = CardFingerprint.at(card.fingerprint);
    const view = { card, promoted: promotedCardId === card.card_id };
    // The card is new (a fresh id, unused by any committed attempt): its first event, no counter to read.
    const event = await recordEvent(
      'credit_card.created',
      creditCardResource(card.card_id),
      appAudience(seen.created_app_id),
      serializeCreditCard(view).credit_card,
      { newResource: true },
    );
    const outcome = await transactWrite(() => [
      owner ? fingerprintItem.put(fingerprint, fingerprintStillNames(userId, owner.card_id)) : fingerprintItem.putNew(fingerprint),
      CreditCard.at(userId, card.card_id).putNew(card),
      userCardsUpdate(userId, seen, promotedCardId, card.created_at),
      ...event,
    ]);
    if (outcome.committed) return view;
    // Someone changed the fingerprint's owner or this user's cards meanwhile: look again and decide again.
  }
  throw CARDS_BUSY();
}

function newCardItem(userId: number, cardId: number, vaulted: VaultedCard): CreditCardAttributes {
  const createdAt = new Date();
  const now = isoSeconds(createdAt);
  return {
    user_id: userId,
    card_id: cardId,
    gateway_token: vaulted.gatewayToken,
    fingerprint: vaulted.fingerprint,
    bin: vaulted.bin,
    last_4: vaulted.last4,
    expiration_month: vaulted.expirationMonth,
    expiration_year: vaulted.expirationYear,
    type: vaulted.type,
    debit: vaulted.debit,
    state: 'active',
    created_at: now,
    created_at_ms: createdAt.getTime(),
    updated_at: now,
    deactivated_at: null,
  };
}

/** The user's active cards, oldest first. Deleted (inactive) cards are not listed. */
export async function listCreditCards(userId: number): Promise<CreditCardView[]> {
  const [cards, seen] = await Promise.all([allCards(userId), userCardsState(userId)]);
  return cards.filter((card) => card.state === 'active').map((card) => ({ card, promoted: card.card_id === seen.promoted_card_id }));
}

/**
 * Deletes (deactivates) a card of the user. The card stays as an inactive record, its fingerprint
 * is released so the card can be added again by anyone, and if it was promoted the newest
 * remaining active card is promoted instead, all in one transaction.
 * An unknown card, another user's card and an already deleted card are all 404. The change is
 * `credit_card.deactivated` for the user's app; the card's event counter is read with the card, in one
 * BatchGetItem.
 */
export async function deleteCreditCard(userId: number, cardId: number): Promise<CreditCardView> {
  const resource = creditCardResource(cardId);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const [[cardItem, eventCounter], seen] = await Promise.all([
      readItems([keys.creditCard(userId, cardId), eventCounterKey(resource)], { consistent: true }),
      userCardsState(userId),
    ]);
    const card = CreditCard.from(cardItem);
    if (!card || card.state !== 'active') throw CARD_NOT_FOUND();
    let promotedCardId = seen.promoted_card_id;
    if (promotedCardId === cardId) {
      const remaining = (await allCards(userId)).filter((other) => other.state === 'active' && other.card_id !== cardId);
      promotedCardId = remaining.at(-1)?.card_id ?? null;
    }
    const now = isoSeconds();
    const deactivated: CreditCardView = { card: { ...card, state: 'inactive', updated_at: now, deactivated_at: now }, promoted: false };
    let first = true;
    const outcome = await transactWrite(async () => {
      // A rebuild (another event of the card won its counter) reads the counter afresh.
      const counter = first ? { counter: eventCounter ?? null } : {};
      first = false;
      const event = await recordEvent(
        'credit_card.deactivated',
        resource,
        appAudience(seen.created_app_id),
        serializeCreditCard(deactivated).credit_card,
        counter,
      );
      return [
        CreditCard.at(userId, cardId).update({ set: { state: 'inactive', updated_at: now, deactivated_at: now } }, cardIsActive),
        CardFingerprint.at(card.fingerprint).delete(fingerprintGoneOrNames(cardId)),
        userCardsUpdate(userId, seen, promotedCardId, now),
        ...event,
      ];
    });
    if (outcome.committed) return deactivated;
    // Deleted by a concurrent request (the next look answers 404), or another card change won: look again.
  }
  throw CARDS_BUSY();
}

/**
 * Promotes one of the user's active cards: it becomes the card charged (`promotedCard`), any other is no longer
 * promoted (one promoted card per user, `promoted_card_id` on the user item). Promoting the promoted card
 * changes nothing. Guarded like every card change: the card must still be active and `cards_version` unchanged.
 */
export async function promoteCreditCard(userId: number, cardId: number): Promise<CreditCardView> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const [card, seen] = await Promise.all([getCreditCard(userId, cardId), userCardsState(userId)]);
    if (!card || card.state !== 'active') throw CARD_NOT_FOUND();
    if (seen.promoted_card_id === cardId) return { card, promoted: true };
    const now = isoSeconds();
    const outcome = await transactWrite(() => [CreditCard.at(userId, cardId).conditionCheck(cardIsActive), userCardsUpdate(userId, seen, cardId, now)]);
    if (outcome.committed) return { card, promoted: true };
    // Deleted meanwhile (the next look answers 404), or another card change won: look again.
  }
  throw CARDS_BUSY();
}

/** A card is good through the last day of its expiration month (UTC). */
function expiresBefore(card: Pick<CreditCardAttributes, 'expiration_month' | 'expiration_year'>, at: Date): boolean {
  const firstOfNextMonth = Date.UTC(card.expiration_year, card.expiration_month, 1);
  return firstOfNextMonth <= at.getTime();
}

export const NO_CARD_MESSAGE = 'You have no cards on file. Please add a valid card to pay.';

/**
 * Whether the user can pay (GET /v15|v14/payment_token): `payable` with the promoted card, or not (no active
 * promoted card, or it has expired). `expiringSoon`: the card's last valid month is this month or the next.
 * Reads the promoted card named on the user item (one GetItem; none without a promoted card).
 */
export async function paymentStanding(
  user: { user_id: number; promoted_card_id?: number | null },
  at = new Date(),
): Promise<{ payable: false } | { payable: true; expiringSoon: boolean }> {
  if (user.promoted_card_id == null) return { payable: false };
  const card = await getCreditCard(user.user_id, user.promoted_card_id);
  if (card?.state !== 'active' || expiresBefore(card, at)) return { payable: false };
  const inTwoMonths = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 2, 1));
  return { payable: true, expiringSoon: expiresBefore(card, inTwoMonths) };
}

/** What a charge is made against: the user's promoted active card, if they have one. */
export async function promotedCard(userId: number): Promise<{ cardId: number; gatewayToken: string } | undefined> {
  const seen = await readUserCardsState(userId);
  if (seen?.promoted_card_id == null) return undefined;
  const card = await getCreditCard(userId, seen.promoted_card_id);
  if (card?.state !== 'active') return undefined;
  return { cardId: card.card_id, gatewayToken: card.gateway_token };
}

const present = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);
const humanize = (field: string) => `${field.charAt(0).toUpperCase()}${field.slice(1).replaceAll('_', ' ')}`;

/**
 * What the body hands over: a nonce when one is sent (with the field it came in), else the four
 * encrypted fields (each required once any is sent: 422 on the first missing one), else 422 on the
 * contract's nonce field.
 */
export function cardSourceOf(card: CreditCardBody): { source: CardSource; nonceField?: string } {
  for (const field of NONCE_FIELDS) {
    const nonce = present(card[field]);
    if (nonce) return { source: { kind: 'nonce', nonce }, nonceField: field };
  }
  if (ENCRYPTED_FIELDS.some((field) => present(card[field]))) {
    const missing = ENCRYPTED_FIELDS.find((field) => !present(card[field]));
    if (missing) throw unprocessable('credit_card', missing, `${humanize(missing)} can't be blank`, 'missing');
    const postalCode = card.postal_code?.trim();
    return {
      source: {
        kind: 'encrypted',
        card: {
          number: present(card.encrypted_number)!,
          cvv: present(card.encrypted_cvv)!,
          expirationMonth: present(card.encrypted_expiration_month)!,
          expirationYear: present(card.encrypted_expiration_year)!,
          ...(postalCode ? { postalCode } : {}),
        },
      },
    };
  }
  throw unprocessable('credit_card', 'gateway_payment_nonce', "Gateway payment nonce can't be blank", 'missing');
}
