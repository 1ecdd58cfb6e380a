import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;

/** 256 random bits, hex: tokens, API keys and QR code data all come from here. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}

/** Tokens and API keys are stored only as this digest; a leaked table yields no usable credential. */
export function sha256(value: string): string {
  // One-shot digest (the string UTF-8 encoded, as `createHash(...).update(value, 'utf8')`): every token check
  // hashes the presented token, and the one-shot form skips building a Hash object (about a third of the CPU).
  return hash('sha256', value, 'hex');
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFKC'), salt, SCRYPT.keylen, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scryptAsync(password.normalize('NFKC'), Buffer.from(saltText, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A password hash that no password matches, verified against when the username is unknown so timing says nothing. */
export const UNKNOWN_USER_PASSWORD_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
