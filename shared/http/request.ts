/** The request a handler serves (`ApiRequest`, built by apiHandler once it is admitted and its inputs are valid) and what it is built from. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Credentials } from '#shared/auth/tokens.ts';
import type { Route } from '#shared/routes.ts';

export interface ApiRequest<TBody, TQuery, TParams, TPrefetched = undefined> {
  body: TBody;
  query: TQuery;
  params: TParams;
  /**
   * The route's prefetch (HandlerSpec.prefetch): undefined when the route declares none or the request named
   * nothing to read. Already marked handled: a failed prefetch rejects only where it is awaited (the domain
   * then makes its read itself).
   */
  prefetched?: Promise<TPrefetched>;
  /** Resolved credentials, already checked against the route's credential kind and permissions. */
  credentials: Credentials;
  headers: Record<string, string | undefined>;
  requestId: string;
  /** Absolute base URL (scheme, host, stage) for Link and *_url fields: clients follow them as given. */
  baseUrl: string;
  rawPath: string;
  route: Route;
  event: APIGatewayProxyEventV2;
  /**
   * The caller's address, which per-client limits key on: the viewer's when the request provably came
   * through our CloudFront distribution, else API Gateway's sourceIp (shared/http/client-address.ts).
   */
  sourceIp: string;
}

export function baseUrlOf(event: APIGatewayProxyEventV2): string {
  const configured = process.env.PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/$/, '');
  const headers = event.headers ?? {};
  // Clients can send X-Forwarded-Proto and Host themselves: a link must never point at `gopher://`
  // or `://`, so only http or https is taken, and the host API Gateway resolved wins over the header.
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const proto = forwarded === 'http' || forwarded === 'https' ? forwarded : 'https';
  const host = event.requestContext.domainName || headers.host;
  const stage = event.requestContext.stage && event.requestContext.stage !== '$default' ? `/${event.requestContext.stage}` : '';
  return `${proto}://${host}${stage}`;
}

export function lowerCaseHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string | undefined> {
  const lowered: Record<string, string | undefined> = {};
  for (const name in headers) lowered[name.toLowerCase()] = headers[name];
  return lowered;
}
