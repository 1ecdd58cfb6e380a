/**
 * Errors that reach a client. Every 4xx body is the contract's error array:
 * `[{"error": {"object", "property", "message", "code"?}}]`.
 */

export interface ErrorDetail {
  object: string;
  property: string;
  message: string;
  code?: string;
}

export type ErrorBody = { error: ErrorDetail }[];

export class ApiError extends Error {
  readonly status: number;
  /** `null` answers with an empty body (the contract's "no body" cases). */
  readonly details: ErrorDetail[] | null;
  readonly headers: Record<string, string>;

  constructor(status: number, details: ErrorDetail[] | null, headers: Record<string, string> = {}) {
    super(details?.map((detail) => detail.message).join('\n') ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
    this.headers = headers;
  }

  body(): ErrorBody | undefined {
    return this.details?.map((error) => ({ error }));
  }
}

export function errorDetail(object: string, property: string, message: string, code?: string): ErrorDetail {
  return code === undefined ? { object, property, message } : { object, property, message, code };
}

/** 422 with one error. */
export function unprocessable(object: string, property: string, message: string, code?: string): ApiError {
  return new ApiError(422, [errorDetail(object, property, message, code)]);
}

/** 422 with every problem found at once (a cart's, a validation's). */
export function unprocessableAll(details: ErrorDetail[]): ApiError {
  return new ApiError(422, details);
}

export function badRequest(object: string, property: string, message: string, code?: string): ApiError {
  return new ApiError(400, [errorDetail(object, property, message, code)]);
}

/** 404; without a detail the body is empty, as the contract shows for most not-found cases. */
export function notFound(detail?: ErrorDetail): ApiError {
  return new ApiError(404, detail ? [detail] : null);
}

/** 404 of the management API: the staff member's merchant has no `noun` with the path's id (another merchant's one answers the same). */
export function merchantHasNo(object: string, noun: string): ApiError {
  return notFound(errorDetail(object, 'id', `This merchant has no ${noun} with this id.`, 'not_found'));
}

/** 410: the operation existed once and never will again (its answer says what to do instead). */
export function gone(object: string, property: string, message: string, code: string): ApiError {
  return new ApiError(410, [errorDetail(object, property, message, code)]);
}

export function unauthorized(message = 'Not authorized.', object = 'access_token', property = 'base', code = 'not_authorized'): ApiError {
  return new ApiError(401, [errorDetail(object, property, message, code)]);
}

/** 403: the caller is who they say, but their role does not allow this (a management route, docs/merchant-api.md). */
export function forbidden(message: string, code: string, object = 'access_token', property = 'role'): ApiError {
  return new ApiError(403, [errorDetail(object, property, message, code)]);
}

/** 409 with Retry-After: a race the client wins by trying again shortly (never stored under an Idempotency-Key). */
export function conflict(message: string, retryAfterSeconds: number, object = 'request', code = 'in_flight'): ApiError {
  return new ApiError(409, [errorDetail(object, 'base', message, code)], { 'Retry-After': String(retryAfterSeconds) });
}

/** 503 with Retry-After: a part this request needs is down for a moment. */
export function serviceUnavailable(object: string, message: string, code: string, retryAfterSeconds: number): ApiError {
  return new ApiError(503, [errorDetail(object, 'base', message, code)], { 'Retry-After': String(retryAfterSeconds) });
}

export function tooManyRequests(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError(429, [errorDetail('request', 'base', message, 'rate_limited')], { 'Retry-After': String(retryAfterSeconds) });
}

// Identity: login protection, app credentials, rate limits (docs/security.md)

/** RFC 7235: every 401 names the scheme it wants; LevelUp answered `Token realm="LevelUp"` too. */
export const WWW_AUTHENTICATE = 'Token realm="LevelUp"';

/** 429 for a limit that resets at a known time; `code` says which limit. */
export function rateLimited(object: string, message: string, code: string, retryAfterSeconds: number): ApiError {
  return new ApiError(429, [errorDetail(object, 'base', message, code)], { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
}

/** The LevelUp docs' login errors, word for word (422 on both /v14 and /v15). */
export function invalidApiKey(object = 'access_token'): ApiError {
  return unprocessable(object, 'api_key', 'Api key is invalid.', 'invalid_api_key');
}

export function invalidLogin(): ApiError {
  return unprocessable('access_token', 'base', 'The email address or password you provided is incorrect.', 'invalid_credentials');
}
