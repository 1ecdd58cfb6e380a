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
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { keys } from '#shared/db/keys.ts';
import { ApiError, conflict, unprocessable } from '#shared/errors.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Keys are kept (and replayed) at least this long. */
export const RETENTION_SECONDS = 7 * 24 * 60 * 60;
/** How long an unfinished request holds its key; after that a retry may proceed (crash recovery). */
export const IN_PROGRESS_LEASE_SECONDS = 30;

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

function recordKey(scope: string, key: string) {
  return keys.idempotencyKey(scope, createHash('sha256').update(key).digest('hex'));
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
function refusal(existing: Record<string, unknown>, request: IdempotentRequest): ApiError {
  return typeof existing.caller === 'string' && existing.caller !== request.caller ? OTHER_CALLER() : MISMATCH();
}

/**
 * Writes the INPROGRESS record unless a live record holds the key. Exported for tests and for
 * callers that need the claim without the HTTP wrapper.
 */
export async function claimIdempotencyKey(request: IdempotentRequest & { key: string }, leaseSeconds = IN_PROGRESS_LEASE_SECONDS): Promise<Presented> {
  const hash = requestHash(request);
  const Key = recordKey(request.scope, request.key);
  // One token for every try: a write whose answer was lost is re-sent, and finding this token on the
  // record means the earlier try took the key (else the key would stay locked until the lease expires).
  const leaseToken = randomUUID();
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = epochSeconds();
    try {
      await retryTransient(() =>
        db().send(
          new PutCommand({
            TableName: table(),
            Item: {
              ...Key,
              entity: 'IdempotencyKey',
              scope: request.scope,
              caller: request.caller,
              status: 'INPROGRESS',
              request_hash: hash,
              lease_token: leaseToken,
              lease_expires_at: now + leaseSeconds,
              ttl: now + RETENTION_SECONDS,
              created_at: isoSeconds(),
            },
            ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now OR (#status = :inprogress AND lease_expires_at < :now)',
            ExpressionAttributeNames: { '#ttl': 'ttl', '#status': 'status' },
            ExpressionAttributeValues: { ':now': now, ':inprogress': 'INPROGRESS' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { kind: 'run', claim: { leaseToken } };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The winner's record comes back with the failure, but in the low-level (marshalled) form the
      // document client does not convert; use it only if it is plain, else read it consistently.
      const returned = (error as { Item?: Record<string, unknown> }).Item;
      const existing =
        returned && typeof returned.pk === 'string'
          ? returned
          : (await retryTransient(() => db().send(new GetCommand({ TableName: table(), Key, ConsistentRead: true })))).Item;
      if (!existing) continue; // deleted (released) meanwhile: try to claim again
      if (existing.request_hash !== hash) throw refusal(existing, request);
      if (existing.status === 'COMPLETED') return { kind: 'replay', response: JSON.parse(String(existing.response_json)) as StoredResponse };
      if (existing.lease_token === leaseToken) return { kind: 'run', claim: { leaseToken } };
      const leaseLeft = Number(existing.lease_expires_at ?? now) - now;
      if (leaseLeft < 0) continue; // expired between our write and read: claim again
      return { kind: 'in_flight', retryAfter: Math.max(1, Math.min(leaseLeft, 5)) };
    }
  }
  return { kind: 'in_flight', retryAfter: 1 };
}

function completedRecord(request: IdempotentRequest & { key: string }, leaseToken: string, response: StoredResponse) {
  const now = epochSeconds();
  return {
    TableName: table(),
    Item: {
      ...recordKey(request.scope, request.key),
      entity: 'IdempotencyKey',
      scope: request.scope,
      caller: request.caller,
      status: 'COMPLETED',
      request_hash: requestHash(request),
      // JSON text: a DynamoDB map would not keep the body's key order, and replays must be identical.
      response_json: JSON.stringify(response),
      ttl: now + RETENTION_SECONDS,
      created_at: isoSeconds(),
    },
    ConditionExpression: '#status = :inprogress AND lease_token = :lease',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':inprogress': 'INPROGRESS', ':lease': leaseToken },
  };
}

async function storeCompleted(request: IdempotentRequest & { key: string }, leaseToken: string, response: StoredResponse): Promise<void> {
  try {
    await retryTransient(() => db().send(new PutCommand(completedRecord(request, leaseToken, response))));
  } catch (error) {
    // Already COMPLETED inside the money transaction (or our lease was taken over): nothing to do.
    if (!isConditionFailure(error)) throw error;
  }
}

async function release(request: IdempotentRequest & { key: string }, leaseToken: string): Promise<void> {
  try {
    await retryTransient(() =>
      db().send(
        new DeleteCommand({
          TableName: table(),
          Key: recordKey(request.scope, request.key),
          ConditionExpression: '#status = :inprogress AND lease_token = :lease',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':inprogress': 'INPROGRESS', ':lease': leaseToken },
        }),
      ),
    );
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
    storeResponse: (response) => ({ Put: completedRecord(keyed, leaseToken, response) }),
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
