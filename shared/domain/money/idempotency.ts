/**
 * `Idempotency-Key` for money-moving POSTs (proposed and completed orders, refunds, order-ahead
 * completion): the records and their rules. shared/http/idempotency.ts reads the key and the request
 * from a handler's request. Modelled on Powertools idempotency, with one improvement where money moves: the
 * COMPLETED record can be written inside the same TransactWriteItems as the money change
 * (`context.storeResponse()`), so no crash can leave money moved without its stored response.
 *
 * Record (`keys.idempotencyKey(scope, sha256(key))`):
 *   status INPROGRESS | COMPLETED, caller (every principal of the credentials), request_hash (SHA-256 of the
 *   caller, method, path and canonical JSON body),
 *   lease_token + lease_expires_at (INPROGRESS only: a crashed request's key frees itself after
 *   IN_PROGRESS_LEASE_SECONDS), response_json (status, body, headers), ttl (epoch seconds; DynamoDB TTL
 *   deletes it some time after RETENTION_SECONDS, and reads treat an expired record as absent).
 *
 * Outcomes for a request carrying a key:
 * - first time (or expired record, or expired lease): INPROGRESS is written with a condition, the work runs;
 *   2xx and 4xx results are stored (a replay answers the same), 409 and 5xx release the key.
 * - same key, same request, completed: the stored status/body/headers + `Idempotent-Replayed: true`.
 * - same key, different request: 422 request/idempotency_key/mismatch.
 * - same key from another caller (a merchant token with another user's token, as a POS sends for each
 *   customer): 422 request/idempotency_key/other_caller, never a replay: a stored answer belongs to the
 *   credentials that made it (Stripe scopes keys to the account that sent them).
 * - same key while the first is in flight: 409 with Retry-After.
 */
import { createHash, randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure } from '#shared/db/client.ts';
import type { StoredItem } from '#shared/db/reads.ts';
import { and, below, equals, itemIsNew, or } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { transactWrite, type LabelledItems, type TransactItem } from '#shared/db/transactions.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { keys } from '#shared/db/keys.ts';
import { ApiError, conflict, unprocessable } from '#shared/errors.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Keys are kept (and replayed) at least this long. */
export const RETENTION_SECONDS = 7 * 24 * 60 * 60;
/** How long an unfinished request holds its key; after that a retry may proceed (crash recovery). */
export const IN_PROGRESS_LEASE_SECONDS = 30;

/** The record of one (scope, Idempotency-Key): see the header. */
export const IdempotencyKey = defineEntity<{
  scope: string;
  /** Absent on a record written before the caller was recorded (never replayed: see `refusal`). */
  caller?: string;
  status: 'INPROGRESS' | 'COMPLETED';
  request_hash: string;
  /** INPROGRESS only: which request holds the key, and until when (epoch seconds). */
  lease_token?: string;
  lease_expires_at?: number;
  /** COMPLETED only: the StoredResponse as JSON text (a DynamoDB map would not keep the body's key order). */
  response_json?: string;
  /** Epoch seconds: DynamoDB TTL deletes the record some time after; reads treat an expired one as absent. */
  ttl: number;
  created_at: string;
}>()({ entity: 'IdempotencyKey', key: (scope: string, key: string) => keys.idempotencyKey(scope, createHash('sha256').update(key).digest('hex')) });

/**
 * The first answer to a natural key (an external identifier, an addition reversed, an identifier_from_merchant),
 * which a repeat answers again: JSON text, because a DynamoDB map does not keep key order and a replay must be
 * byte-identical.
 */
export interface FirstAnswer {
  response_json: string;
  created_at: string;
}

/**
 * One round of a keyed money operation's transaction: `batch`, and the Idempotency-Key's COMPLETED record when the
 * request carries a key (`stored`, labelled `idempotency`), committed together. Done when it committed, or when it
 * failed on the operation's own new record (`own`): this very transaction, re-sent after its answer was lost, had
 * committed. A failure on the key's record means another request holds the key: `contended` is thrown. Otherwise
 * the labels whose guards failed, for the caller's checks before its next round.
 */
export async function commitKeyedRound(
  batch: LabelledItems,
  own: string,
  stored: TransactItem | undefined,
  contended: () => ApiError,
): Promise<{ done: true } | { done: false; failed: Set<string> }> {
  if (stored) batch.add('idempotency', stored);
  const outcome = await transactWrite(() => batch.items, 1);
  if (outcome.committed) return { done: true };
  const failed = batch.failedLabels(outcome.reasons);
  if (failed.has(own)) return { done: true };
  if (failed.has('idempotency')) throw contended();
  return { done: false, failed };
}

/** A request may take the key at `now`: no record, an expired one, or one whose in-progress lease ran out. */
const keyClaimable = (now: number) => or(itemIsNew, below('ttl', now), and(equals('status', 'INPROGRESS'), below('lease_expires_at', now)));

/** The key is still held, in progress, by the request with `leaseToken` (a taken-over lease cannot commit). */
const leaseHeld = (leaseToken: string) => and(equals('status', 'INPROGRESS'), equals('lease_token', leaseToken));

export interface StoredResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface IdempotentRequest {
  method: string;
  path: string;
  body: unknown;
  /** Whose key it is: the token's subject, e.g. `merchant:1` or `user:5`. */
  scope: string;
  /**
   * Every principal the credentials carry, e.g. `merchant:1 user:5`: within one scope, the customer a
   * merchant acts for. Part of the fingerprint, so one caller's key never replays another's answer.
   */
  caller: string;
  /** The Idempotency-Key header value, if sent. */
  key: string | undefined;
}

export interface IdempotencyContext {
  /**
   * The Put that marks this key COMPLETED with `response`, for the caller's money transaction
   * (undefined when the request carried no key). Guarded by this request's lease, so a request whose
   * lease was taken over cannot commit.
   */
  storeResponse(response: StoredResponse): TransactItem | undefined;
}

const noKeyContext: IdempotencyContext = { storeResponse: () => undefined };

/** JSON with object keys sorted at every level, so equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(request: Pick<IdempotentRequest, 'caller' | 'method' | 'path' | 'body'>): string {
  return createHash('sha256')
    .update(`${request.caller}\n${request.method.toUpperCase()} ${request.path}\n${canonicalJson(request.body ?? null)}`)
    .digest('hex');
}

interface ClaimResult {
  leaseToken: string;
}

/** What happened when a key was presented: ours to run, or an earlier request's outcome. */
type Presented = { kind: 'run'; claim: ClaimResult } | { kind: 'replay'; response: StoredResponse } | { kind: 'in_flight'; retryAfter: number };

const MISMATCH = () => unprocessable('request', 'idempotency_key', 'This Idempotency-Key was already used with a different request.', 'mismatch');
const OTHER_CALLER = () =>
  unprocessable('request', 'idempotency_key', 'This Idempotency-Key was already used by other credentials; use a new key for each customer.', 'other_caller');

/**
 * Why a live record held by another request is not ours to replay. A record written before the caller was
 * recorded has no `caller` and a hash without it: it never matches, so it is never replayed to anyone.
 */
function refusal(existing: EntityItem<typeof IdempotencyKey>, request: IdempotentRequest): ApiError {
  return typeof existing.caller === 'string' && existing.caller !== request.caller ? OTHER_CALLER() : MISMATCH();
}

/**
 * Writes the INPROGRESS record unless a live record holds the key. Exported for tests and for
 * callers that need the claim without the HTTP wrapper.
 */
export async function claimIdempotencyKey(request: IdempotentRequest & { key: string }, leaseSeconds = IN_PROGRESS_LEASE_SECONDS): Promise<Presented> {
  const hash = requestHash(request);
  const record = IdempotencyKey.at(request.scope, request.key);
  // One token for every try: a write whose answer was lost is re-sent, and finding this token on the
  // record means the earlier try took the key (else the key would stay locked until the lease expires).
  const leaseToken = randomUUID();
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = epochSeconds();
    const claim = record.put(
      {
        scope: request.scope,
        caller: request.caller,
        status: 'INPROGRESS',
        request_hash: hash,
        lease_token: leaseToken,
        lease_expires_at: now + leaseSeconds,
        ttl: now + RETENTION_SECONDS,
        created_at: isoSeconds(),
      },
      keyClaimable(now),
    ).Put;
    try {
      await retryTransient(() => db().send(new PutCommand({ ...claim, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
      return { kind: 'run', claim: { leaseToken } };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The winner's record comes back with the failure, but in the low-level (marshalled) form the
      // document client does not convert; use it only if it is plain, else read it consistently.
      const returned = (error as { Item?: StoredItem }).Item;
      const existing = returned && typeof returned.pk === 'string' ? IdempotencyKey.from(returned) : await record.get({ consistent: true });
      if (!existing) continue; // deleted (released) meanwhile: try to claim again
      if (existing.request_hash !== hash) throw refusal(existing, request);
      if (existing.status === 'COMPLETED') return { kind: 'replay', response: JSON.parse(String(existing.response_json)) as StoredResponse };
      if (existing.lease_token === leaseToken) return { kind: 'run', claim: { leaseToken } };
      const leaseLeft = (existing.lease_expires_at ?? now) - now;
      if (leaseLeft < 0) continue; // expired between our write and read: claim again
      return { kind: 'in_flight', retryAfter: Math.max(1, Math.min(leaseLeft, 5)) };
    }
  }
  return { kind: 'in_flight', retryAfter: 1 };
}

function completedRecord(request: IdempotentRequest & { key: string }, leaseToken: string, response: StoredResponse) {
  const now = epochSeconds();
  return IdempotencyKey.at(request.scope, request.key).put(
    {
      scope: request.scope,
      caller: request.caller,
      status: 'COMPLETED',
      request_hash: requestHash(request),
      // JSON text: a DynamoDB map would not keep the body's key order, and replays must be identical.
      response_json: JSON.stringify(response),
      ttl: now + RETENTION_SECONDS,
      created_at: isoSeconds(),
    },
    leaseHeld(leaseToken),
  );
}

async function storeCompleted(request: IdempotentRequest & { key: string }, leaseToken: string, response: StoredResponse): Promise<void> {
  try {
    await retryTransient(() => db().send(new PutCommand(completedRecord(request, leaseToken, response).Put)));
  } catch (error) {
    // Already COMPLETED inside the money transaction (or our lease was taken over): nothing to do.
    if (!isConditionFailure(error)) throw error;
  }
}

async function release(request: IdempotentRequest & { key: string }, leaseToken: string): Promise<void> {
  try {
    await retryTransient(() => db().send(new DeleteCommand(IdempotencyKey.at(request.scope, request.key).delete(leaseHeld(leaseToken)).Delete)));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

function shouldStore(status: number): boolean {
  return status < 500 && status !== 409;
}

/**
 * Runs `work` at most once per (scope, Idempotency-Key). `work` gets a context whose `storeResponse()`
 * it should put into its money transaction; whatever it returns (or the 4xx ApiError it throws) is
 * stored and replayed for the same key and request.
 */
export async function withIdempotency(request: IdempotentRequest, work: (context: IdempotencyContext) => Promise<StoredResponse>): Promise<StoredResponse> {
  if (request.key === undefined) return work(noKeyContext);
  if (request.key.length === 0 || request.key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw unprocessable('request', 'idempotency_key', `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, 'invalid');
  }
  const keyed = { ...request, key: request.key };
  const presented = await claimIdempotencyKey(keyed);
  if (presented.kind === 'replay') {
    return { ...presented.response, headers: { ...presented.response.headers, 'Idempotent-Replayed': 'true' } };
  }
  if (presented.kind === 'in_flight') throw conflict('A request with this Idempotency-Key is still in progress; retry later.', presented.retryAfter);

  const { leaseToken } = presented.claim;
  const context: IdempotencyContext = {
    storeResponse: (response) => completedRecord(keyed, leaseToken, response),
  };
  let response: StoredResponse;
  try {
    response = await work(context);
  } catch (error) {
    if (error instanceof ApiError && shouldStore(error.status)) {
      await storeCompleted(keyed, leaseToken, { status: error.status, body: error.body(), headers: error.headers });
    } else {
      await release(keyed, leaseToken);
    }
    throw error;
  }
  if (shouldStore(response.status)) await storeCompleted(keyed, leaseToken, response);
  else await release(keyed, leaseToken);
  return response;
}
