import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * A deprecated route says so on every answer, errors included (docs/versioning.md): `Deprecation` (RFC 9745: since
 * when, a structured-field date `@<unix seconds>`) and `Sunset` (RFC 8594: the HTTP-date after which it may stop
 * answering). Both follow the handler spec's `deprecated` flag, the one that marks the operation `deprecated: true`
 * in the OpenAPI document, so the document, the headers and docs/versioning.md's list cannot disagree.
 *
 * The routes deprecated today were deprecated by LevelUp before this service existed; their clock starts when this
 * policy was published, and they keep answering at least the policy's 12 months after it.
 */
export const DEPRECATED_SINCE = new Date('2026-12-06T00:00:00Z');
/** The earliest a deprecated route may stop answering: 12 months after its deprecation (docs/versioning.md). */
export const SUNSET_AT = new Date('2027-12-06T00:00:00Z');

export const DEPRECATION_HEADERS: Readonly<Record<'Deprecation' | 'Sunset', string>> = {
  Deprecation: `@${DEPRECATED_SINCE.getTime() / 1000}`,
  Sunset: SUNSET_AT.toUTCString(),
};

/** The headers' meaning, as the OpenAPI document shows them on a deprecated operation's answers. */
export const DEPRECATION_HEADER_DESCRIPTIONS: Readonly<Record<keyof typeof DEPRECATION_HEADERS, string>> = {
  Deprecation: `RFC 9745: this operation is deprecated since this date (\`${DEPRECATION_HEADERS.Deprecation}\`, ${DEPRECATED_SINCE.toISOString().slice(0, 10)}); docs/versioning.md names what replaces it.`,
  Sunset: `RFC 8594: the operation keeps answering at least until this date (\`${DEPRECATION_HEADERS.Sunset}\`).`,
};

/** Wraps a deprecated route's handler: its every answer gets the two headers (added last, over nothing the handler chose). */
export function withDeprecationHeaders<Args extends unknown[]>(
  handler: (...args: Args) => Promise<APIGatewayProxyStructuredResultV2>,
): (...args: Args) => Promise<APIGatewayProxyStructuredResultV2> {
  return async (...args) => {
    const response = await handler(...args);
    Object.assign((response.headers ??= {}), DEPRECATION_HEADERS);
    return response;
  };
}
