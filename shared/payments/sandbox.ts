import { createHash } from 'node:crypto';
import type { ChargeRequest, ChargeResult, PaymentGateway, RefundRequest, RefundResult, VaultResult, VaultedCard } from '#shared/payments/gateway.ts';

/**
 * The sandbox gateway: test nonces in the style of Braintree's `fake-valid-nonce` family, each
 * selecting a card behaviour. docs/payments.md is the table clients and testers read.
 *
 * Every Lambda runs in its own process, so the sandbox keeps no state: the behaviour travels
 * inside the gateway token, and charge and refund ids are digests of their idempotency keys
 * (a retried charge with the same key is the same charge, as with a real gateway).
 */

/** Test nonces. Any text appended to one (`fake-valid-nonce-2`) is a distinct card with the same behaviour. */
export const SANDBOX_NONCES = {
  /** A Visa that is charged in full. */
  valid: 'fake-valid-nonce',
  /** Vaulting fails: the card's expiration year is invalid. */
  invalidExpiration: 'fake-invalid-expiration-nonce',
  /** The card is added, every charge on it is declined. */
  declines: 'fake-declines-nonce',
  /** Charges are authorized only up to LIMITED_FUNDS_AMOUNT each (partially, when allowed). */
  limitedFunds: 'fake-limited-funds-nonce',
} as const;

/** Most a limited-funds card authorizes per charge, in cents. */
export const LIMITED_FUNDS_AMOUNT = 1500;

type Behaviour = 'valid' | 'declines' | 'limited_funds';

interface CardProfile {
  behaviour: Behaviour | 'invalid_expiration';
  /** The nonce without any suffix: the well-known test card for that behaviour. */
  baseNonce: string;
  bin: string;
  /** Last 4 of the un-suffixed nonce (suffixed nonces derive theirs from the nonce digest). */
  last4: string;
}

// No base nonce is a prefix of another, so matching by prefix is unambiguous.
const PROFILES: readonly CardProfile[] = [
  { behaviour: 'valid', baseNonce: SANDBOX_NONCES.valid, bin: '411111', last4: '1111' },
  { behaviour: 'invalid_expiration', baseNonce: SANDBOX_NONCES.invalidExpiration, bin: '411111', last4: '1111' },
  { behaviour: 'declines', baseNonce: SANDBOX_NONCES.declines, bin: '400000', last4: '0002' },
  { behaviour: 'limited_funds', baseNonce: SANDBOX_NONCES.limitedFunds, bin: '400000', last4: '9995' },
];

const TOKEN_PATTERN = /^sbx_(valid|declines|limited_funds)_[0-9a-f]{24}$/;

function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function profileOf(nonce: string): CardProfile | undefined {
  return PROFILES.find((profile) => nonce.startsWith(profile.baseNonce));
}

/** The card a nonce stands for: every fact is a function of the nonce alone. */
export function sandboxCard(nonce: string): VaultResult {
  const profile = profileOf(nonce);
  if (!profile) return { ok: false, reason: 'invalid_nonce' };
  if (profile.behaviour === 'invalid_expiration') return { ok: false, reason: 'invalid_expiration' };
  const fingerprint = digest(nonce);
  const seed = Number.parseInt(fingerprint.slice(0, 8), 16);
  const suffixed = nonce !== profile.baseNonce;
  const card: VaultedCard = {
    gatewayToken: `sbx_${profile.behaviour}_${fingerprint.slice(0, 24)}`,
    fingerprint,
    bin: profile.bin,
    last4: suffixed ? String(seed % 10_000).padStart(4, '0') : profile.last4,
    expirationMonth: (seed % 12) + 1,
    // Always some years ahead so sandbox cards do not expire under a demo.
    expirationYear: 2031 + (Math.floor(seed / 12) % 8),
    type: 'Visa',
  };
  return { ok: true, card };
}

export function sandboxChargeId(idempotencyKey: string): string {
  return `sbx_ch_${digest(`charge:${idempotencyKey}`).slice(0, 24)}`;
}

export function sandboxRefundId(idempotencyKey: string): string {
  return `sbx_re_${digest(`refund:${idempotencyKey}`).slice(0, 24)}`;
}

export class SandboxGateway implements PaymentGateway {
  async vault(nonce: string): Promise<VaultResult> {
    return sandboxCard(nonce);
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0) {
      throw new RangeError(`A charge amount must be a positive integer of cents, got ${request.amount}`);
    }
    const behaviour = TOKEN_PATTERN.exec(request.gatewayToken)?.[1] as Behaviour | undefined;
    const chargeId = sandboxChargeId(request.idempotencyKey);
    switch (behaviour) {
      case 'valid':
        return { ok: true, chargeId, amount: request.amount };
      case 'limited_funds':
        if (request.amount <= LIMITED_FUNDS_AMOUNT) return { ok: true, chargeId, amount: request.amount };
        return request.allowPartial ? { ok: true, chargeId, amount: LIMITED_FUNDS_AMOUNT } : { ok: false, reason: 'insufficient_funds' };
      default:
        // 'declines', and any token this sandbox never issued.
        return { ok: false, reason: 'declined' };
    }
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    return { ok: true, refundId: sandboxRefundId(request.idempotencyKey) };
  }
}
