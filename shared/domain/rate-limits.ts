import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { above, and, attributeMissing, atMost, below, itemIsNew, or } from '#shared/db/conditions.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { rateLimited } from '#shared/errors.ts';
import { epochSeconds } from '#shared/time.ts';

/**
 * Fixed-window counters in the table, for limits that must hold across every Lambda instance:
 * failed logins per account and per client, registration lookups, card vaulting, reset emails
 * (docs/security.md). A window opens at its first hit and lasts `windowSeconds`; once it holds `limit`
 * hits, the subject is refused until the window ends. The item carries a TTL, so idle windows vanish.
 *
 * An attempt is counted *before* the work it limits (`reserve`), in one conditional UpdateItem: a burst
 * of concurrent attempts cannot all pass a check made before any of them was counted. Work that turns
 * out not to count (a successful login) gives its hit back (`release`) or forgives the window (`clearWindow`).
 */
export interface WindowLimit {
  /** Names the limit in the key (`login-account`, `login-client`, `card-vault`, ...). */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface WindowState {
  count: number;
  /** Epoch seconds the window ends. */
  endsAt: number;
}

export type Reservation = { allowed: true; state: WindowState } | { allowed: false; retryAfterSeconds: number };

/** One open window of a limit for one subject. */
export const RateWindow = defineEntity<{
  limit_name: string;
  count: number;
  /** Epoch seconds the window ends. */
  ends_at: number;
  /** Epoch seconds: a minute after the window, DynamoDB TTL deletes it. */
  ttl: number;
}>()({ entity: 'RateWindow', key: (limit: WindowLimit, subject: string) => keys.rateWindow(`${limit.name}#${subject}`) });

export function windowKey(limit: WindowLimit, subject: string) {
  return RateWindow.key(limit, subject);
}

/** The window is open at `now` (it ends later). */
const windowOpen = (now: number) => above('ends_at', now);

/**
 * Counts one hit unless the open window already holds `limit` (then refuses, counting nothing).
 * One UpdateItem in the usual case; a window that has ended is replaced by a new one.
 */
export async function reserve(limit: WindowLimit, subject: string, refuseAtLimit = true): Promise<Reservation> {
  const window = RateWindow.at(limit, subject);
  for (let attempt = 0; attempt < 4; attempt++) {
    const now = epochSeconds();
    const endsAt = now + limit.windowSeconds;
    try {
      const hit = window.update(
        { setIfAbsent: { ends_at: endsAt, ttl: endsAt + 60 }, set: { limit_name: limit.name }, add: { count: 1 }, creates: true },
        // A window not yet opened takes the hit; an open one only below its limit (unless the hit is only recorded).
        or(attributeMissing('ends_at'), refuseAtLimit ? and(windowOpen(now), below('count', limit.limit)) : windowOpen(now)),
      ).Update;
      const result = await db().send(new UpdateCommand({ ...hit, ReturnValues: 'ALL_NEW' }));
      return { allowed: true, state: { count: Number(result.Attributes?.count), endsAt: Number(result.Attributes?.ends_at) } };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // Refused: either the window is full, or it has ended and must be replaced.
    const current = await window.get({ consistent: true });
    const currentEnd = current?.ends_at ?? 0;
    if (current && currentEnd > now) {
      if (current.count >= limit.limit && refuseAtLimit) return { allowed: false, retryAfterSeconds: currentEnd - now };
      continue;
    }
    try {
      // A new window replaces one that has ended.
      await db().send(
        new PutCommand(window.put({ limit_name: limit.name, count: 1, ends_at: endsAt, ttl: endsAt + 60 }, or(itemIsNew, atMost('ends_at', now))).Put),
      );
      return { allowed: true, state: { count: 1, endsAt } };
    } catch (error) {
      // Another request opened the new window first: count into it.
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Error(`Rate window ${limit.name} kept changing under concurrent hits`);
}

/** Counts one hit whatever the count (for limits whose excess is handled quietly, like reset emails). */
export async function recordHit(limit: WindowLimit, subject: string): Promise<WindowState> {
  const reservation = await reserve(limit, subject, false);
  if (!reservation.allowed) throw new Error('unreachable: recordHit never refuses');
  return reservation.state;
}

/** Gives back a reserved hit that turned out not to count (a successful login, an attempt refused elsewhere). */
export async function release(limit: WindowLimit, subject: string): Promise<void> {
  try {
    await db().send(new UpdateCommand(RateWindow.at(limit, subject).update({ add: { count: -1 } }, and(windowOpen(epochSeconds()), above('count', 0))).Update));
  } catch (error) {
    // The window ended (or was cleared) meanwhile: nothing to give back.
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * `release` and `clearWindow` as transaction items, for work that writes its result in a transaction anyway
 * (a login issuing its token). The release is unconditional: a window that ended meanwhile is at worst
 * left one hit lower, and a new window starts from its own count.
 */
export function releaseItem(limit: WindowLimit, subject: string) {
  return {
    Update: {
      TableName: table(),
      Key: windowKey(limit, subject),
      UpdateExpression: 'ADD #count :minus',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':minus': -1 },
    },
  };
}

export function clearWindowItem(limit: WindowLimit, subject: string) {
  return { Delete: { TableName: table(), Key: windowKey(limit, subject) } };
}

/** Closes a window (a successful login forgives the failures before it; a password reset lifts a lockout). */
export async function clearWindow(limit: WindowLimit, subject: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: windowKey(limit, subject) }));
}

/**
 * Counts an attempt, or refuses it with 429 and `Retry-After` once the window holds `limit` attempts.
 * For limits on attempts themselves (card vaulting, lookups), where every try counts.
 */
export async function consumeOrRefuse(limit: WindowLimit, subject: string, refusal: { object: string; message: string }): Promise<void> {
  const reservation = await reserve(limit, subject);
  if (!reservation.allowed) throw rateLimited(refusal.object, refusal.message, 'rate_limited', reservation.retryAfterSeconds);
}

/** Per account (username): 10 failed logins in 15 minutes lock its logins until the window ends, even with the right password. */
export const ACCOUNT_LOGIN_FAILURES: WindowLimit = { name: 'login-account', limit: 10, windowSeconds: 15 * 60 };
/**
 * Per client (source address): 50 failed logins in 15 minutes, over any accounts, stop its logins until the
 * window ends, so one client cannot walk a password list across many accounts 9 at a time.
 */
export const CLIENT_LOGIN_FAILURES: WindowLimit = { name: 'login-client', limit: 50, windowSeconds: 15 * 60 };

/** Card vaulting per user: a stolen token must not become a card-testing rig (every attempt counts, success or not). */
export const CARD_VAULT_ATTEMPTS: WindowLimit = { name: 'card-vault', limit: 10, windowSeconds: 3600 };

/**
 * Manager confirmation codes (refunds): 5 wrong codes for one order, or 20 over a merchant's orders, within
 * 15 minutes lock that order's (or every) refund at the merchant until the window ends, even with the right code.
 * Each attempt is counted before the comparison; the right code gives its hit back.
 */
export const MANAGER_CODE_ORDER_FAILURES: WindowLimit = { name: 'manager-code-order', limit: 5, windowSeconds: 15 * 60 };
export const MANAGER_CODE_MERCHANT_FAILURES: WindowLimit = { name: 'manager-code-merchant', limit: 20, windowSeconds: 15 * 60 };

/**
 * Legacy card claims per user: 10 attempts that migrate nothing (unknown card, another email's card, a card
 * already migrated) per hour, then 429 until the window ends, so a new account cannot enumerate card numbers.
 */
export const LEGACY_CLAIM_FAILURES: WindowLimit = { name: 'legacy-claim', limit: 10, windowSeconds: 3600 };

/**
 * Webhook replays per endpoint: each queues up to 1000 signed POSTs to a URL the tenant chose (10 replays
 * made 761), so at most 3 per 15 minutes and 10 per day; the next is 429 with Retry-After.
 */
export const WEBHOOK_REPLAYS_PER_ENDPOINT: WindowLimit = { name: 'webhook-replay', limit: 3, windowSeconds: 15 * 60 };
export const WEBHOOK_REPLAYS_PER_DAY: WindowLimit = { name: 'webhook-replay-day', limit: 10, windowSeconds: 24 * 3600 };

/**
 * Password-reset requests (POST /v14/passwords), per client address and per email, counted for every request
 * whether or not a user has the email (the answer must not tell): then 429 with Retry-After. The per-email
 * window also bounds the reset emails an address can be sent (no mail-bombing through us).
 */
export const PASSWORD_RESETS_PER_CLIENT: WindowLimit = { name: 'reset-client', limit: 20, windowSeconds: 3600 };
export const PASSWORD_RESETS_PER_EMAIL: WindowLimit = { name: 'reset-email', limit: 5, windowSeconds: 3600 };

/**
 * Permissions requests (POST /v15/apps/permissions_requests), per app and per email, counted whether or not a
 * user has the email: an app cannot mail a person more than a few requests a day, nor ask at scale.
 */
export const PERMISSIONS_REQUESTS_PER_APP: WindowLimit = { name: 'permreq-app', limit: 100, windowSeconds: 3600 };
export const PERMISSIONS_REQUESTS_PER_EMAIL: WindowLimit = { name: 'permreq-email', limit: 5, windowSeconds: 24 * 3600 };

/**
 * Gift card value orders per buyer: the order's answer is the same whether or not its email has an account
 * (held-gifts.ts), and this bounds how many emails one account can send gifts to while a held gift's state
 * (pending, in the buyer's list) could tell it: 10 an hour, each attempt counted before anything is read or
 * charged; the next is 429 with Retry-After. A real buyer sends a few gifts a day.
 */
export const GIFT_CARD_ORDERS_PER_BUYER: WindowLimit = { name: 'gift-card-order', limit: 10, windowSeconds: 3600 };
