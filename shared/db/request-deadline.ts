import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The abort signal of the HTTP request a piece of work belongs to. middy aborts it when it answers
 * 503 `timeout` just before the Lambda's own deadline (shared/http/handler.ts): from then on the client
 * has been told to retry, so the abandoned request must not start a new transaction — otherwise its
 * work would commit after the answer and the client's retry would meet it (with a key: 409 and then the
 * stored outcome; without one: a second, real change).
 *
 * Only transactions are refused (shared/db/transactions.ts): the writes that undo a half-done request
 * (releasing an Idempotency-Key lease or a settlement claim, voiding a card charge) are single-item
 * writes and gateway calls, which still run, so an abandoned request leaves nothing held.
 */
const requestSignal = new AsyncLocalStorage<AbortSignal>();

/** Runs one request's work with its abort signal in scope (no signal: outside an HTTP request, never refused). */
export function withinRequest<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  return signal ? requestSignal.run(signal, work) : work();
}

/** Thrown instead of sending a transaction for a request that was already answered with a timeout. */
export class RequestAbandoned extends Error {
  override readonly name = 'RequestAbandoned';
  constructor() {
    super('The request was answered 503 timeout; its remaining transactions are not sent.');
  }
}

/** Refuses to go on with work whose request has been answered with a timeout. */
export function refuseIfRequestAbandoned(): void {
  if (requestSignal.getStore()?.aborted) throw new RequestAbandoned();
}
