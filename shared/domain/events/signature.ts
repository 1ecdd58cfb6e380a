/**
 * The delivery signature: `LevelUp-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`,
 * one `v1=` per secret valid at the time (two while a rolled secret overlaps). Signed over the timestamp
 * and the exact body bytes, never the URL or headers, so proxies and CDNs in front of a receiver cannot
 * break it; receivers compare in constant time and reject timestamps older than 5 minutes (README).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'LevelUp-Signature';
/** How old a signed timestamp a receiver should accept. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signatureOf(secret, timestamp, body)}`)].join(',');
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
