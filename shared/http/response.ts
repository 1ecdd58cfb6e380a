/**
 * What a handler answers and how it goes out: the answer a handler returns (`ok`, `noContent`), the Lambda result
 * built from it (`respond`), the error array of every failure (`errorResponse`), and the answer just before the
 * Lambda's own timeout (`lambdaTimeout`).
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError, errorDetail, serviceUnavailable } from '#shared/errors.ts';
import { addSecurityHeaders } from '#shared/http/headers.ts';

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as-is instead of JSON (HTML, scripts); the headers must carry its Content-Type. */
  rawBody?: string;
  /** Bytes (an image), sent base64-encoded to API Gateway; the headers must carry its Content-Type. */
  binaryBody?: Buffer;
}

export function ok(body: unknown, headers?: Record<string, string>): ApiResponse {
  return { status: 200, body, headers };
}

export function noContent(headers?: Record<string, string>): ApiResponse {
  return { status: 204, headers };
}

/**
 * The answer's headers, in this order: Content-Type for a JSON body, the security headers, X-Request-Id,
 * then the handler's own (which replace any of those they name, in place). Built into one object: this
 * runs on every request.
 */
export function respond(requestId: string, response: ApiResponse): APIGatewayProxyStructuredResultV2 {
  const json = response.rawBody === undefined && response.binaryBody === undefined && response.body !== undefined && response.status !== 204;
  const headers: Record<string, string> = json ? { 'Content-Type': 'application/json; charset=utf-8' } : {};
  addSecurityHeaders(headers, response.status, response.headers, 'X-Request-Id', requestId);
  if (response.rawBody !== undefined) return { statusCode: response.status, headers, body: response.rawBody };
  if (response.binaryBody !== undefined) return { statusCode: response.status, headers, body: response.binaryBody.toString('base64'), isBase64Encoded: true };
  if (!json) return { statusCode: response.status, headers, body: '' };
  return { statusCode: response.status, headers, body: JSON.stringify(response.body) };
}

/** After a timeout answer: long enough for the timed-out request's own work (and its key's lease) to settle. */
const TIMEOUT_RETRY_AFTER_SECONDS = 2;

/**
 * What middy answers just before the Lambda's own timeout. The domain call may still be running and its write
 * may yet commit: a 503 the client retries (with the same Idempotency-Key on a money route it gets the outcome,
 * 409 while in flight), never a bare 500 that reads as "nothing happened". Only middy's own deadline: a
 * DynamoDB client timeout inside the handler stays what it was.
 */
export function lambdaTimeout(): never {
  throw serviceUnavailable(
    'request',
    'The request took too long to finish. It may still complete: retry it, with the same Idempotency-Key where it has one, to learn its outcome.',
    'timeout',
    TIMEOUT_RETRY_AFTER_SECONDS,
  );
}

/**
 * The answer to a failure, and what the request's log line adds about it: an ApiError as it is, middy's
 * content-type and JSON failures as the contract's 415 and 400, anything else a 500 with no details.
 */
export function errorResponse(requestId: string, error: unknown): { response: APIGatewayProxyStructuredResultV2; logged: Record<string, unknown> } {
  if (error instanceof ApiError) {
    return { response: respond(requestId, { status: error.status, body: error.body(), headers: error.headers }), logged: { error: error.message } };
  }
  const middyError = error as { statusCode?: number; message?: string; expose?: boolean } | null;
  if (middyError?.statusCode === 415) {
    const apiError = new ApiError(415, [
      errorDetail('request', 'content_type', 'Request bodies must be JSON (Content-Type: application/json).', 'unsupported_media_type'),
    ]);
    return { response: respond(requestId, { status: 415, body: apiError.body() }), logged: { error: apiError.message } };
  }
  if (middyError?.statusCode === 422 || middyError?.statusCode === 400) {
    const apiError = new ApiError(400, [errorDetail('request', 'body', 'The request body is not valid JSON.', 'malformed_json')]);
    return { response: respond(requestId, { status: 400, body: apiError.body() }), logged: { error: apiError.message } };
  }
  const apiError = new ApiError(500, [errorDetail('request', 'base', 'Something went wrong on our side. The request id identifies it.', 'internal_error')]);
  return {
    response: respond(requestId, { status: 500, body: apiError.body() }),
    logged: { error: (error as Error)?.message, stack: (error as Error)?.stack },
  };
}
