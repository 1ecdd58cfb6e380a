/**
 * The address per-client limits key on (failed-login caps, registration lookups): the viewer's, not
 * the proxy's. Behind the CloudFront distribution API Gateway's `sourceIp` is a CloudFront edge
 * address shared by every viewer of that edge, so the edge tells the API who the viewer was: a
 * CloudFront Function copies the viewer address into VIEWER_ADDRESS_HEADER (replacing whatever the
 * client sent) and the distribution adds EDGE_SECRET_HEADER with the deployment's secret to every
 * origin request (replacing a client's header of that name). The viewer address is trusted only
 * when that secret matches EDGE_ORIGIN_SECRET: a request to the stage directly, or one with a forged
 * header, keys on `sourceIp` as before. docs/security.md "Per-client caps behind CloudFront".
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Set by the distribution on every origin request; its value is the deployment's EDGE_ORIGIN_SECRET. */
export const EDGE_SECRET_HEADER = 'x-origin-verify';
/** Set by the distribution's viewer-request function to the viewer's address (IPv4 or IPv6, no port). */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** The digest of the configured secret, computed once per secret (the environment is fixed per process). */
let expected: { secret: string; digest: Buffer } | undefined;
function expectedDigest(secret: string): Buffer {
  if (expected?.secret !== secret) expected = { secret, digest: digest(secret) };
  return expected.digest;
}

/** Whether the request carries the edge's secret: equal digests, compared in constant time. */
function cameThroughEdge(presented: string | undefined, secret: string | undefined): boolean {
  if (!secret || presented === undefined) return false;
  return timingSafeEqual(digest(presented), expectedDigest(secret));
}

/**
 * The client's address: the viewer address the edge forwarded when the request provably came through
 * it, else API Gateway's `sourceIp`. `headers` are the request's, names lower-cased.
 */
export function clientAddress(
  event: Pick<APIGatewayProxyEventV2, 'requestContext'>,
  headers: Record<string, string | undefined>,
  /** The deployment's EDGE_ORIGIN_SECRET; undefined where there is no distribution (locally, the bare stack). */
  secret: string | undefined,
): string {
  const sourceIp = event.requestContext?.http?.sourceIp ?? 'unknown';
  if (!cameThroughEdge(headers[EDGE_SECRET_HEADER], secret)) return sourceIp;
  const viewer = headers[VIEWER_ADDRESS_HEADER]?.trim();
  return viewer !== undefined && isIP(viewer) !== 0 ? viewer : sourceIp;
}
