/**
 * A handler invoked directly, as Lambda calls it, for tests of the pipeline's deadline (middy answers 503
 * `timeout` just before the Lambda's own): the smallest event the pipeline reads and a context whose
 * remaining time the test chooses.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** A POST /v14/users with no body and no credential (users-create is public), under `requestId`. */
export function publicPostEvent(requestId: string): APIGatewayProxyEventV2 {
  return {
    rawPath: '/v14/users',
    headers: { host: 'localhost' },
    requestContext: { requestId, http: { method: 'POST', path: '/v14/users', sourceIp: '127.0.0.1' } },
  } as unknown as APIGatewayProxyEventV2;
}

/** The users-create function's context with `milliseconds` left before its timeout. */
export function contextWithRemaining(milliseconds: number, requestId: string): Context {
  const deadline = Date.now() + milliseconds;
  return { awsRequestId: requestId, functionName: 'users-create', getRemainingTimeInMillis: () => deadline - Date.now() } as unknown as Context;
}
