import { describe, expect, it } from 'vitest';
import {
  LIMITED_FUNDS_AMOUNT,
  SANDBOX_CARD_NUMBERS,
  SANDBOX_NONCES,
  SandboxGateway,
  sandboxCard,
  sandboxEncrypt,
  sandboxEncryptedCard,
} from '#shared/payments/sandbox.ts';
import type { EncryptedCard, VaultedCard } from '#shared/payments/gateway.ts';

const gateway = new SandboxGateway();

async function vaulted(nonce: string): Promise<VaultedCard> {
  const result = await gateway.vault({ kind: 'nonce', nonce });
  if (!result.ok) throw new Error(`expected ${nonce} to vault, got ${result.reason}`);
  return result.card;
}

describe('sandbox gateway: vaulting', () => {
  it('vaults the valid nonce as the Visa test card', async () => {
    const card = await vaulted(SANDBOX_NONCES.valid);
    expect(card).toMatchObject({ bin: '411111', last4: '1111', type: 'Visa' });
    expect(card.gatewayToken).toMatch(/^sbx_valid_[0-9a-f]{24}$/);
    expect(card.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(card.expirationMonth).toBeGreaterThanOrEqual(1);
    expect(card.expirationMonth).toBeLessThanOrEqual(12);
    expect(card.expirationYear).toBeGreaterThan(2030);
  });

  it('is deterministic: the same nonce is the same card', async () => {
    expect(await vaulted('fake-valid-nonce-7')).toEqual(await vaulted('fake-valid-nonce-7'));
  });

  it('gives a suffixed nonce a distinct card with the same behaviour', async () => {
    const base = await vaulted(SANDBOX_NONCES.valid);
    const other = await vaulted('fake-valid-nonce-2');
    expect(other.fingerprint).not.toBe(base.fingerprint);
    expect(other.gatewayToken).not.toBe(base.gatewayToken);
    expect(other.gatewayToken).toMatch(/^sbx_valid_/);
    expect(other.last4).toMatch(/^\d{4}$/);
    expect(other.last4).not.toBe(base.last4);
  });

  it('fails the invalid-expiration nonce and unknown nonces', async () => {
    expect(await gateway.vault({ kind: 'nonce', nonce: SANDBOX_NONCES.invalidExpiration })).toEqual({
      ok: false,
      reason: 'invalid_expiration',
      field: 'expiration_year',
    });
    expect(await gateway.vault({ kind: 'nonce', nonce: 'tokencc_bf_abc123' })).toEqual({ ok: false, reason: 'invalid_nonce' });
    expect(sandboxCard('')).toEqual({ ok: false, reason: 'invalid_nonce' });
  });
});

describe('sandbox gateway: client-side encrypted cards', () => {
  const NOW = new Date('2026-06-15T12:00:00Z');
  const encrypted = (number: string, overrides: Partial<Record<keyof EncryptedCard, string>> = {}): EncryptedCard => ({
    number: sandboxEncrypt(number),
    cvv: sandboxEncrypt(number.startsWith('37') ? '1234' : '123'),
    expirationMonth: sandboxEncrypt('11'),
    expirationYear: sandboxEncrypt('2030'),
    postalCode: '02114',
    ...overrides,
  });
  const vaultedEncrypted = (card: EncryptedCard): VaultedCard => {
    const result = sandboxEncryptedCard(card, NOW);
    if (!result.ok) throw new Error(`expected the card to vault, got ${result.reason}`);
    return result.card;
  };

  it('vaults each test card number with its brand, the expiry it was sent, and its behaviour in the token', () => {
    expect(vaultedEncrypted(encrypted(SANDBOX_CARD_NUMBERS.visa))).toMatchObject({
      bin: '411111',
      last4: '1111',
      type: 'Visa',
      expirationMonth: 11,
      expirationYear: 2030,
      gatewayToken: expect.stringMatching(/^sbx_valid_/),
    });
    expect(vaultedEncrypted(encrypted(SANDBOX_CARD_NUMBERS.mastercard))).toMatchObject({ bin: '555555', last4: '4444', type: 'MasterCard' });
    expect(vaultedEncrypted(encrypted(SANDBOX_CARD_NUMBERS.americanExpress))).toMatchObject({ bin: '378282', last4: '0005', type: 'AmericanExpress' });
    expect(vaultedEncrypted(encrypted(SANDBOX_CARD_NUMBERS.discover))).toMatchObject({ bin: '601111', last4: '1117', type: 'Discover' });
    expect(vaultedEncrypted(encrypted(SANDBOX_CARD_NUMBERS.declines)).gatewayToken).toMatch(/^sbx_declines_/);
    expect(vaultedEncrypted(encrypted(SANDBOX_CARD_NUMBERS.limitedFunds)).gatewayToken).toMatch(/^sbx_limited_funds_/);
  });

  it('is the same card as the nonce that stands for the same test card, suffix for suffix', async () => {
    expect(vaultedEncrypted(encrypted(SANDBOX_CARD_NUMBERS.visa)).fingerprint).toBe((await vaulted(SANDBOX_NONCES.valid)).fingerprint);
    expect(vaultedEncrypted(encrypted(`${SANDBOX_CARD_NUMBERS.visa}-7`)).fingerprint).toBe((await vaulted(`${SANDBOX_NONCES.valid}-7`)).fingerprint);
    expect(vaultedEncrypted(encrypted(`${SANDBOX_CARD_NUMBERS.visa}-8`)).fingerprint).not.toBe(
      vaultedEncrypted(encrypted(`${SANDBOX_CARD_NUMBERS.visa}-7`)).fingerprint,
    );
  });

  it('refuses a field it cannot decrypt, naming it', () => {
    expect(sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.visa, { number: '$bt4|javascript_1_3_9$FyreT+o2W/9VHHjS43ZJJe2SmdvTBcve58...' }), NOW)).toEqual({
      ok: false,
      reason: 'undecryptable',
      field: 'number',
    });
    expect(sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.visa, { cvv: '123' }), NOW)).toEqual({ ok: false, reason: 'undecryptable', field: 'cvv' });
  });

  it('refuses a number that is not a test card number (it never handles a real one)', () => {
    for (const number of ['4242424242424241', '41111111111111112', 'abc', '']) {
      expect(sandboxEncryptedCard(encrypted(number), NOW)).toEqual({ ok: false, reason: 'invalid_number' });
    }
  });

  it('refuses an expired card, a month or year that is not one, and a CVV of the wrong length', () => {
    const invalidYear = { ok: false, reason: 'invalid_expiration', field: 'expiration_year' };
    expect(sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.visa, { expirationYear: sandboxEncrypt('2025') }), NOW)).toEqual(invalidYear);
    expect(
      sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.visa, { expirationYear: sandboxEncrypt('2026'), expirationMonth: sandboxEncrypt('5') }), NOW),
    ).toEqual(invalidYear);
    expect(sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.visa, { expirationYear: sandboxEncrypt('2047') }), NOW)).toEqual(invalidYear);
    expect(sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.visa, { expirationYear: sandboxEncrypt('soon') }), NOW)).toEqual(invalidYear);
    expect(sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.visa, { expirationMonth: sandboxEncrypt('13') }), NOW)).toEqual({
      ok: false,
      reason: 'invalid_expiration',
      field: 'expiration_month',
    });
    expect(
      vaultedEncrypted(encrypted(SANDBOX_CARD_NUMBERS.visa, { expirationYear: sandboxEncrypt('26'), expirationMonth: sandboxEncrypt('06') })),
    ).toMatchObject({ expirationMonth: 6, expirationYear: 2026 });
    expect(sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.visa, { cvv: sandboxEncrypt('1234') }), NOW)).toEqual({ ok: false, reason: 'invalid_cvv' });
    expect(sandboxEncryptedCard(encrypted(SANDBOX_CARD_NUMBERS.americanExpress, { cvv: sandboxEncrypt('123') }), NOW)).toEqual({
      ok: false,
      reason: 'invalid_cvv',
    });
  });
});

describe('sandbox gateway: charges and refunds', () => {
  it('charges a valid card in full, with a charge id derived from the idempotency key', async () => {
    const { gatewayToken } = await vaulted(SANDBOX_NONCES.valid);
    const first = await gateway.charge({ gatewayToken, amount: 2599, allowPartial: false, idempotencyKey: 'order-1' });
    const retried = await gateway.charge({ gatewayToken, amount: 2599, allowPartial: false, idempotencyKey: 'order-1' });
    const other = await gateway.charge({ gatewayToken, amount: 2599, allowPartial: false, idempotencyKey: 'order-2' });
    expect(first).toEqual({ ok: true, chargeId: expect.stringMatching(/^sbx_ch_[0-9a-f]{24}$/), amount: 2599 });
    expect(retried).toEqual(first);
    expect(other.ok && first.ok && other.chargeId !== first.chargeId).toBe(true);
  });

  it('declines every charge on the declines card, partial or not', async () => {
    const { gatewayToken } = await vaulted(SANDBOX_NONCES.declines);
    expect(await gateway.charge({ gatewayToken, amount: 1, allowPartial: false, idempotencyKey: 'a' })).toEqual({ ok: false, reason: 'declined' });
    expect(await gateway.charge({ gatewayToken, amount: 100, allowPartial: true, idempotencyKey: 'b' })).toEqual({ ok: false, reason: 'declined' });
  });

  it('declines a token the sandbox never issued', async () => {
    expect(await gateway.charge({ gatewayToken: 'sbx_valid_nothex', amount: 100, allowPartial: false, idempotencyKey: 'c' })).toEqual({
      ok: false,
      reason: 'declined',
    });
  });

  it('authorizes a limited-funds card up to the limit, partially only when allowed', async () => {
    const { gatewayToken } = await vaulted(`${SANDBOX_NONCES.limitedFunds}-x`);
    expect(LIMITED_FUNDS_AMOUNT).toBe(1500);
    expect(await gateway.charge({ gatewayToken, amount: 1500, allowPartial: false, idempotencyKey: 'd' })).toMatchObject({ ok: true, amount: 1500 });
    expect(await gateway.charge({ gatewayToken, amount: 1501, allowPartial: false, idempotencyKey: 'e' })).toEqual({ ok: false, reason: 'insufficient_funds' });
    expect(await gateway.charge({ gatewayToken, amount: 4000, allowPartial: true, idempotencyKey: 'f' })).toMatchObject({ ok: true, amount: 1500 });
  });

  it('refuses a charge amount that is not a positive integer of cents', async () => {
    const { gatewayToken } = await vaulted(SANDBOX_NONCES.valid);
    await expect(gateway.charge({ gatewayToken, amount: 0, allowPartial: false, idempotencyKey: 'g' })).rejects.toThrow(RangeError);
    await expect(gateway.charge({ gatewayToken, amount: 1.5, allowPartial: false, idempotencyKey: 'h' })).rejects.toThrow(RangeError);
  });

  it('always refunds, with a refund id derived from the idempotency key', async () => {
    const first = await gateway.refund({ chargeId: 'sbx_ch_x', amount: 500, idempotencyKey: 'refund-1' });
    expect(first).toEqual({ ok: true, refundId: expect.stringMatching(/^sbx_re_[0-9a-f]{24}$/) });
    expect(await gateway.refund({ chargeId: 'sbx_ch_x', amount: 500, idempotencyKey: 'refund-1' })).toEqual(first);
  });
});
