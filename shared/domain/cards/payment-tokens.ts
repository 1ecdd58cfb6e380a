/**
 * The user's payment token: the QR code data a POS scans to charge the user (docs/identity.md, "Payment token").
 * It is a bearer credential, so it has a lifetime and can be replaced on request: the QR item (keys.paymentToken: what a
 * POS looks up) and the user item (what the app shows) change in one transaction, so the old code stops working
 * the moment the new one exists. Within its lifetime the same code serves any number of purchases.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { nextId } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import type { StoredItem } from '#shared/db/reads.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { TTL_ATTRIBUTE } from '#shared/db/table-definition.ts';
import { randomSecret } from '#shared/auth/secrets.ts';
import { unauthorized } from '#shared/errors.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';
import { parsePaymentCode } from '#shared/domain/cards/payment-codes.ts';
import { paymentTokenIs, User, type UserItem } from '#shared/domain/identity/entities.ts';

/** A payment token works for 30 days after it is issued (a leaked code dies by itself at the latest then). */
export const PAYMENT_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
/**
 * Reading the token (GET /v15/payment_token) replaces one with less than 7 days left, so the code an app has
 * just fetched keeps working for at least a week of purchases.
 */
export const PAYMENT_TOKEN_RENEWAL_SECONDS = 7 * 24 * 3600;

/** QR code data: LevelUp-style framing around 128 random bits, unguessable. */
export function newPaymentTokenData(): string {
  return `LU02${randomSecret(16).toUpperCase()}LU`;
}

/** The QR item: what a POS looks a scanned code up by (keys.paymentToken of its data), naming the user it charges. */
interface PaymentTokenAttributes {
  user_id: number;
  payment_token_id: number;
  created_at: string;
  /** Epoch seconds; also its TTL, so DynamoDB removes it some time after it stopped working. */
  expires_at: number;
  [TTL_ATTRIBUTE]: number;
}

const PaymentToken = defineEntity<PaymentTokenAttributes>()({ entity: 'PaymentToken', key: keys.paymentToken });

/** What the user item says about its current payment token. */
export interface CurrentPaymentToken {
  id: number;
  data: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/** When a token issued at `createdAt` (ISO) ends, for items written before tokens carried `expires_at`. */
function expiryFromCreation(createdAt: unknown): number {
  const issued = typeof createdAt === 'string' ? Date.parse(createdAt) : Number.NaN;
  return Number.isFinite(issued) ? Math.floor(issued / 1000) + PAYMENT_TOKEN_LIFETIME_SECONDS : 0;
}

export function currentPaymentToken(user: UserItem): CurrentPaymentToken {
  return { id: user.payment_token_id, data: user.payment_token_data, expiresAt: user.payment_token_expires_at ?? expiryFromCreation(user.created_at) };
}

/** The QR item's attributes userNamedByPaymentToken reads: a reader that projects the item reads at least these. */
export const PAYMENT_TOKEN_USER_ATTRIBUTES = ['user_id', 'expires_at', 'created_at'] as const;

/**
 * The user a scanned QR code's item names, or undefined when there is none or it has expired (its TTL may not
 * have removed it yet). Every reader of a QR item asks this, so an expired or rotated code charges no one.
 */
export function userNamedByPaymentToken(item: StoredItem | undefined, now = epochSeconds()): number | undefined {
  if (typeof item?.user_id !== 'number') return undefined;
  const expiresAt = typeof item.expires_at === 'number' ? item.expires_at : expiryFromCreation(item.created_at);
  return expiresAt > now ? item.user_id : undefined;
}

/** The user a QR code names (one GetItem), if any and still valid; a scanned code's preferences suffix is not part of the token. */
export async function userIdForPaymentToken(paymentTokenData: string): Promise<number | undefined> {
  if (!paymentTokenData) return undefined;
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.paymentToken(parsePaymentCode(paymentTokenData).tokenData) }));
  return userNamedByPaymentToken(result.Item);
}

/** A new token's fields on the user item and its QR item (written with the user, or by a rotation). */
export function issuePaymentToken(userId: number, paymentTokenId: number, now: string): { token: CurrentPaymentToken; qrItem: TransactItem } {
  const token = { id: paymentTokenId, data: newPaymentTokenData(), expiresAt: epochSeconds(new Date(now)) + PAYMENT_TOKEN_LIFETIME_SECONDS };
  const qrItem = PaymentToken.at(token.data).putNew({
    user_id: userId,
    payment_token_id: paymentTokenId,
    created_at: now,
    expires_at: token.expiresAt,
    [TTL_ATTRIBUTE]: token.expiresAt,
  });
  return { token, qrItem };
}

/**
 * Replaces the user's payment token: the new QR item, the user item pointing at it (guarded by the token it
 * replaces) and the old QR item's deletion, in one transaction. Of concurrent rotations one commits; the others
 * answer the token it made (the old one is dead either way, which is what was asked).
 */
async function replacePaymentToken(user: UserItem, paymentTokenId: number): Promise<CurrentPaymentToken> {
  const old = currentPaymentToken(user);
  const { token, qrItem } = issuePaymentToken(user.user_id, paymentTokenId, isoSeconds());
  const batch = new LabelledItems();
  batch.add(
    'user',
    User.at(user.user_id).update(
      { set: { payment_token_data: token.data, payment_token_id: token.id, payment_token_expires_at: token.expiresAt } },
      paymentTokenIs(old.data),
    ),
  );
  batch.add('qr', qrItem);
  batch.add('old_qr', PaymentToken.at(old.data).delete());
  const outcome = await transactWrite(() => batch.items);
  if (outcome.committed) return token;
  if (!batch.failedLabels(outcome.reasons).has('user')) throw new Error(`payment token rotation cancelled: ${outcome.reasons.join(',')}`);
  // Another rotation (or renewal) replaced the token first: answer the one it made.
  return currentPaymentToken(await readUser(user.user_id, true));
}

/** The user item (users.ts imports this module, so it is read here rather than through getUser). */
async function readUser(userId: number, consistent: boolean): Promise<UserItem> {
  const user = await User.at(userId).get({ consistent });
  if (!user) throw unauthorized('The access token is invalid.');
  return user;
}

/** POST /v15/payment_token/rotations: the user (read) and the new token's id (a counter) in parallel, then the swap. */
export async function rotatePaymentToken(userId: number): Promise<CurrentPaymentToken> {
  const [user, paymentTokenId] = await Promise.all([readUser(userId, false), nextId('payment_token')]);
  return replacePaymentToken(user, paymentTokenId);
}

/** The token an app should show: the current one, or a new one when it has less than the renewal margin left. */
export async function paymentTokenToShow(user: UserItem): Promise<CurrentPaymentToken> {
  const current = currentPaymentToken(user);
  if (current.expiresAt - epochSeconds() > PAYMENT_TOKEN_RENEWAL_SECONDS) return current;
  return replacePaymentToken(user, await nextId('payment_token'));
}

/** The client shape of a payment token (GET /v15/payment_token and a rotation answer the same). */
export function serializePaymentToken(token: CurrentPaymentToken) {
  return { payment_token: { data: token.data, id: token.id } };
}
