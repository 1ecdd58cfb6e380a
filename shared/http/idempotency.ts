/**
 * The Idempotency-Key adapter of the handlers: takes the header, the token's subject (the key's scope),
 * every principal of the credentials (the caller), the method, the path and the body from the request;
 * shared/domain/money/idempotency.ts stores and replays.
 */
import type { TransactItem } from '#shared/db/transactions.ts';
import { withIdempotency, type IdempotencyContext, type StoredResponse } from '#shared/domain/money/idempotency.ts';
import type { ApiRequest } from '#shared/http/handler.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** The key's limits, for the OpenAPI document (which may not import the domain). */
export { MAX_IDEMPOTENCY_KEY_LENGTH, RETENTION_SECONDS } from '#shared/domain/money/idempotency.ts';

type KeyedRequest = Pick<ApiRequest<unknown, unknown, unknown>, 'headers' | 'credentials' | 'rawPath' | 'event'>;

/** The scope of a request's keys: its token's subject. */
export function idempotencyScope(credentials: KeyedRequest['credentials']): string {
  if (credentials.merchant) return `merchant:${credentials.merchant.merchantId}`;
  if (credentials.user) return `user:${credentials.user.userId}`;
  if (credentials.app) return `app:${credentials.app.appId}`;
  return 'anonymous';
}

/**
 * Who sent the request: every principal of its credentials. A POS sends one merchant token with each
 * customer's user token, so the scope alone (the merchant) would let customer B's request replay A's order.
 */
export function idempotencyCaller(credentials: KeyedRequest['credentials']): string {
  const principals = [
    credentials.merchant && `merchant:${credentials.merchant.merchantId}`,
    // Staff members of one merchant share its scope: one's key never replays another's answer.
    credentials.merchant?.staff && `staff:${credentials.merchant.staff.staffId}`,
    credentials.user && `user:${credentials.user.userId}`,
    credentials.app && `app:${credentials.app.appId}`,
  ];
  return principals.filter(Boolean).join(' ') || 'anonymous';
}

/** Runs `work` at most once per Idempotency-Key of the request: `return idempotent(request, (idempotency) => ...)`. */
export function idempotent(request: KeyedRequest, work: (context: IdempotencyContext) => Promise<StoredResponse>): Promise<StoredResponse> {
  return withIdempotency(
    {
      method: request.event.requestContext?.http?.method ?? 'POST',
      path: request.rawPath,
      // The JSON the client sent, as parsed before validation: the same request hashes the same.
      body: (request.event as { body?: unknown }).body ?? null,
      scope: idempotencyScope(request.credentials),
      caller: idempotencyCaller(request.credentials),
      key: request.headers[IDEMPOTENCY_HEADER],
    },
    work,
  );
}

/**
 * A POST answered 204: `work` gets `storeResponse`, the Put of the stored 204, to commit inside its transaction,
 * as idempotentCommit does for a 200.
 */
export function idempotentNoContent(request: KeyedRequest, work: (storeResponse: () => TransactItem | undefined) => Promise<unknown>): Promise<StoredResponse> {
  return idempotent(request, async (idempotency) => {
    await work(() => idempotency.storeResponse({ status: 204 }));
    return { status: 204 };
  });
}

/**
 * A money POST answered 200 with `view(result)`: `work` gets `storeResponse`, the Put of the stored response,
 * to commit inside its money transaction, so no crash can separate the money from its answer.
 */
export function idempotentCommit<T>(
  request: KeyedRequest,
  view: (result: T) => unknown,
  work: (storeResponse: (result: T) => TransactItem | undefined) => Promise<T>,
): Promise<StoredResponse> {
  return idempotent(request, async (idempotency) => {
    const result = await work((committed) => idempotency.storeResponse({ status: 200, body: view(committed) }));
    return { status: 200, body: view(result) };
  });
}
