/**
 * The delivery signatures (docs/events.md, "Delivery"). Two schemes over the same secrets, both sent:
 *
 * - `LevelUp-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, one `v1=` per secret
 *   valid at the time (two while a rolled secret overlaps); the secret's whole text is the HMAC key.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64> [v1,<base64>]`), so
 *   receivers can verify with any Standard Webhooks library; the key is the bytes the `whsec_` secret encodes.
 *
 * Both sign the timestamp and the exact body bytes, never the URL or other headers, so proxies and CDNs in front
 * of a receiver cannot break them; receivers compare in constant time and reject timestamps older than 5 minutes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const SIGNATURE_HEADER = 'LevelUp-Signature';
/** How old a signed timestamp a receiver should accept. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signatureOf(secret, timestamp, body)}`)].join(',');
}

const SECRET_PREFIX = 'whsec_';

/**
 * The key bytes a `whsec_` secret stands for. New secrets are standard base64 (what the Standard Webhooks
 * specification requires); endpoints made before were given base64url, which Node decodes to the same bytes.
 */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** A secret in the specification's form (`whsec_` + standard base64): how a receiver's library takes an older base64url secret. */
export function standardWebhooksSecret(secret: string): string {
  return `${SECRET_PREFIX}${secretKey(secret).toString('base64')}`;
}

/**
 * The three Standard Webhooks headers. `webhook-id` is the event id: the same on every retry and replay of an
 * event, so it is the receiver's idempotency key; one `v1,` signature per secret valid now, space-separated.
 */
export function standardWebhooksHeaders(secrets: readonly string[], messageId: string, timestamp: number, body: string): Record<string, string> {
  const at = new Date(timestamp * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => new Webhook(secretKey(secret), { format: 'raw' }).sign(messageId, at, body)).join(' '),
  };
}

/** What a receiver does (the README's example does the same): true when one v1 matches and t is fresh. */
export function verifySignature(header: string, body: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, body), 'hex');
  return parts.some(
    ([name, value]) => name === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value) && timingSafeEqual(Buffer.from(value, 'hex'), expected),
  );
}
