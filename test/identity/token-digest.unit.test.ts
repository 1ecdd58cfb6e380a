import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from '#shared/auth/secrets.ts';

/** Tokens and API keys are stored as this digest: it must never change, or every stored credential stops working. */
describe('the stored digest of a token', () => {
  it('is the hex SHA-256 of its UTF-8 text', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const text of ['', 'a'.repeat(64), 'Crème brûlée ☕ 🍩', 'token user="x"'])
      expect(sha256(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
  });
});
