/**
 * The payment gateway port. Card data never reaches this service in the clear: the gateway's client-side
 * library turns it into a nonce, or (the gateway's older scheme, still sent by the LevelUp SDKs) encrypts
 * each card field with the gateway's public key. Either way only the gateway can read it; it turns it into
 * a stored payment method, and only the gateway's token and the card's display facts (bin, last 4, expiry,
 * brand) are kept here.
 */

/** Card fields as the client-side encryption library produced them: ciphertexts only the gateway decrypts. */
export interface EncryptedCard {
  number: string;
  cvv: string;
  expirationMonth: string;
  expirationYear: string;
  /** Sent in the clear by clients, for the gateway's address verification. */
  postalCode?: string;
}

/** What a client sends to add a card. */
export type CardSource = { kind: 'nonce'; nonce: string } | { kind: 'encrypted'; card: EncryptedCard };

/** Which encrypted field a failure is about (for the error's property). */
export type EncryptedField = keyof Omit<EncryptedCard, 'postalCode'>;

export interface VaultedCard {
  /** The gateway's reusable token for the card; what charges are made against. */
  gatewayToken: string;
  /** Same card, same fingerprint: how "card already associated with another user" is detected. */
  fingerprint: string;
  bin: string;
  last4: string;
  expirationMonth: number;
  expirationYear: number;
  /** Brand kind, e.g. Visa, MasterCard, AmericanExpress, Discover. */
  type: string;
  /** A debit card (the gateway's BIN data says so); shown to the apps as `debit` and the `debit_card` payment method. */
  debit: boolean;
}

export type VaultFailure =
  /** The nonce is not one the gateway issued (or it expired). */
  | { ok: false; reason: 'invalid_nonce' }
  /** An encrypted field the gateway cannot decrypt (encrypted with another key, truncated, not a ciphertext). */
  | { ok: false; reason: 'undecryptable'; field: EncryptedField }
  | { ok: false; reason: 'invalid_number' }
  | { ok: false; reason: 'invalid_cvv' }
  /** The card is expired, or its month or year is not one. */
  | { ok: false; reason: 'invalid_expiration'; field: 'expiration_month' | 'expiration_year' };

export type VaultResult = { ok: true; card: VaultedCard } | VaultFailure;

export interface ChargeRequest {
  gatewayToken: string;
  amount: number;
  /** Allow an approval for less than `amount` (partial authorization). */
  allowPartial: boolean;
  /** The gateway de-duplicates charges by this key: a retried charge is the same charge. */
  idempotencyKey: string;
}

export type ChargeResult = { ok: true; chargeId: string; amount: number } | { ok: false; reason: 'declined' | 'insufficient_funds' };

export interface RefundRequest {
  chargeId: string;
  amount: number;
  idempotencyKey: string;
}

export type RefundResult = { ok: true; refundId: string } | { ok: false; reason: 'refund_failed' };

export interface PaymentGateway {
  vault(source: CardSource): Promise<VaultResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
}
