import { hash } from 'node:crypto';
import type {
  CardSource,
  ChargeRequest,
  ChargeResult,
  EncryptedCard,
  EncryptedField,
  PaymentGateway,
  RefundRequest,
  RefundResult,
  VaultResult,
  VaultedCard,
} from '#shared/payments/gateway.ts';

/**
 * The sandbox gateway, in the style of a card gateway's test environment; docs/payments.md is the
 * table clients and testers read. It takes both ways a client hands over a card:
 * - test nonces in the style of Braintree's `fake-valid-nonce` family, each selecting a behaviour;
 * - client-side encrypted fields (`encrypted_number`, ...), where the sandbox plays the gateway that
 *   holds the decryption key: a value is `SANDBOX_ENCRYPTION_PREFIX` + its plaintext (what the
 *   encryption library would produce against the sandbox), and the number must be one of the
 *   documented test card numbers, so the sandbox never handles a real card number.
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
  /** A Visa debit card, charged in full. */
  validDebit: 'fake-valid-debit-nonce',
} as const;

/**
 * Test card numbers for client-side encrypted cards, as gateways document theirs. Any text appended
 * after the number (`4111111111111111-7`) is a distinct card with the same behaviour, as for nonces.
 */
export const SANDBOX_CARD_NUMBERS = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  americanExpress: '378282246310005',
  discover: '6011111111111117',
  declines: '4000000000000002',
  limitedFunds: '4000000000009995',
  visaDebit: '4000056655665556',
} as const;

/** How the sandbox's "encryption" marks a value: the envelope of Braintree's client-side encryption, naming the sandbox. */
export const SANDBOX_ENCRYPTION_PREFIX = '$bt4|sandbox$';

/** What the client-side encryption library produces for a value when the gateway is the sandbox. */
export function sandboxEncrypt(plaintext: string | number): string {
  return `${SANDBOX_ENCRYPTION_PREFIX}${plaintext}`;
}

/** Most a limited-funds card authorizes per charge, in cents. */
export const LIMITED_FUNDS_AMOUNT = 1500;

/** How far ahead an expiration year may be, as gateways bound it. */
export const MAX_EXPIRATION_YEARS_AHEAD = 20;

type Behaviour = 'valid' | 'declines' | 'limited_funds';

interface TestCard {
  number: string;
  type: string;
  behaviour: Behaviour;
  debit?: boolean;
}

const TEST_CARDS: readonly TestCard[] = [
  { number: SANDBOX_CARD_NUMBERS.visa, type: 'Visa', behaviour: 'valid' },
  { number: SANDBOX_CARD_NUMBERS.mastercard, type: 'MasterCard', behaviour: 'valid' },
  { number: SANDBOX_CARD_NUMBERS.americanExpress, type: 'AmericanExpress', behaviour: 'valid' },
  { number: SANDBOX_CARD_NUMBERS.discover, type: 'Discover', behaviour: 'valid' },
  { number: SANDBOX_CARD_NUMBERS.declines, type: 'Visa', behaviour: 'declines' },
  { number: SANDBOX_CARD_NUMBERS.limitedFunds, type: 'Visa', behaviour: 'limited_funds' },
  { number: SANDBOX_CARD_NUMBERS.visaDebit, type: 'Visa', behaviour: 'valid', debit: true },
];

const testCard = (number: string): TestCard => TEST_CARDS.find((card) => card.number === number)!;

/** Each nonce stands for a test card: `fake-valid-nonce-7` and the number `4111111111111111-7` are the same card. */
const NONCE_CARDS: readonly { baseNonce: string; card: TestCard | 'invalid_expiration' }[] = [
  { baseNonce: SANDBOX_NONCES.valid, card: testCard(SANDBOX_CARD_NUMBERS.visa) },
  { baseNonce: SANDBOX_NONCES.invalidExpiration, card: 'invalid_expiration' },
  { baseNonce: SANDBOX_NONCES.declines, card: testCard(SANDBOX_CARD_NUMBERS.declines) },
  { baseNonce: SANDBOX_NONCES.limitedFunds, card: testCard(SANDBOX_CARD_NUMBERS.limitedFunds) },
  { baseNonce: SANDBOX_NONCES.validDebit, card: testCard(SANDBOX_CARD_NUMBERS.visaDebit) },
];

const TOKEN_PATTERN = /^sbx_(valid|declines|limited_funds)_[0-9a-f]{24}$/;

function digest(value: string): string {
  // One-shot: no Hash object per charge id (the same hex digest).
  return hash('sha256', value, 'hex');
}

/**
 * The vaulted card for a test card and the text appended to it (`variant`, '' for the card itself).
 * Every fact is a function of the two: fingerprint and token from the number and variant, a variant's
 * last 4 from its digest, and, when no expiry was given (nonces), an expiry derived from it as well.
 */
function vaultedTestCard(card: TestCard, variant: string, expiry?: { month: number; year: number }): VaultedCard {
  const fingerprint = digest(`${card.number}${variant}`);
  const seed = Number.parseInt(fingerprint.slice(0, 8), 16);
  return {
    gatewayToken: `sbx_${card.behaviour}_${fingerprint.slice(0, 24)}`,
    fingerprint,
    bin: card.number.slice(0, 6),
    last4: variant === '' ? card.number.slice(-4) : String(seed % 10_000).padStart(4, '0'),
    expirationMonth: expiry?.month ?? (seed % 12) + 1,
    // Always some years ahead so sandbox cards do not expire under a demo.
    expirationYear: expiry?.year ?? 2031 + (Math.floor(seed / 12) % 8),
    type: card.type,
    debit: card.debit ?? false,
  };
}

/** The card a nonce stands for. No base nonce is a prefix of another, so matching by prefix is unambiguous. */
export function sandboxCard(nonce: string): VaultResult {
  const match = NONCE_CARDS.find((candidate) => nonce.startsWith(candidate.baseNonce));
  if (!match) return { ok: false, reason: 'invalid_nonce' };
  if (match.card === 'invalid_expiration') return { ok: false, reason: 'invalid_expiration', field: 'expiration_year' };
  return { ok: true, card: vaultedTestCard(match.card, nonce.slice(match.baseNonce.length)) };
}

function decrypt(ciphertext: string): string | undefined {
  return ciphertext.startsWith(SANDBOX_ENCRYPTION_PREFIX) ? ciphertext.slice(SANDBOX_ENCRYPTION_PREFIX.length).trim() : undefined;
}

/**
 * The card client-side encrypted fields stand for. Checks, in the order a gateway reports them:
 * every field decrypts; the number is a test card number (plus any variant text); the month is 1-12
 * and the year a four-digit year (two digits are taken as 20xx), the card not expired at `now` and
 * at most MAX_EXPIRATION_YEARS_AHEAD ahead; the CVV is 3 digits (4 for American Express).
 */
export function sandboxEncryptedCard(encrypted: EncryptedCard, now: Date = new Date()): VaultResult {
  const plain: Partial<Record<EncryptedField, string>> = {};
  for (const field of ['number', 'expirationMonth', 'expirationYear', 'cvv'] as const) {
    const value = decrypt(encrypted[field]);
    if (value === undefined) return { ok: false, reason: 'undecryptable', field };
    plain[field] = value;
  }
  const numberMatch = /^(\d{13,19})(\D.*)?$/.exec(plain.number!);
  const card = numberMatch ? TEST_CARDS.find((candidate) => candidate.number === numberMatch[1]) : undefined;
  if (!card) return { ok: false, reason: 'invalid_number' };

  const month = /^\d{1,2}$/.test(plain.expirationMonth!) ? Number(plain.expirationMonth) : Number.NaN;
  if (!(month >= 1 && month <= 12)) return { ok: false, reason: 'invalid_expiration', field: 'expiration_month' };
  const yearText = plain.expirationYear!;
  const year = /^\d{4}$/.test(yearText) ? Number(yearText) : /^\d{2}$/.test(yearText) ? 2000 + Number(yearText) : Number.NaN;
  const [thisYear, thisMonth] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
  const expired = year < thisYear || (year === thisYear && month < thisMonth);
  if (Number.isNaN(year) || expired || year > thisYear + MAX_EXPIRATION_YEARS_AHEAD)
    return { ok: false, reason: 'invalid_expiration', field: 'expiration_year' };

  const cvvDigits = card.type === 'AmericanExpress' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvvDigits}}$`).test(plain.cvv!)) return { ok: false, reason: 'invalid_cvv' };
  return { ok: true, card: vaultedTestCard(card, numberMatch![2] ?? '', { month, year }) };
}

export function sandboxChargeId(idempotencyKey: string): string {
  return `sbx_ch_${digest(`charge:${idempotencyKey}`).slice(0, 24)}`;
}

export function sandboxRefundId(idempotencyKey: string): string {
  return `sbx_re_${digest(`refund:${idempotencyKey}`).slice(0, 24)}`;
}

export class SandboxGateway implements PaymentGateway {
  async vault(source: CardSource): Promise<VaultResult> {
    return source.kind === 'nonce' ? sandboxCard(source.nonce) : sandboxEncryptedCard(source.card);
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
