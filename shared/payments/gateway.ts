/**
 * The payment gateway port. Card data never reaches this service: a client-side library turns it into
 * a nonce, the gateway turns the nonce into a stored payment method, and only the gateway's token and
 * the card's display facts (bin, last 4, expiry, brand) are kept here.
 */

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
}

export type VaultResult = { ok: true; card: VaultedCard } | { ok: false; reason: 'invalid_expiration' | 'invalid_nonce' };

export interface ChargeRequest {
  gatewayToken: string;
  amount: number;
  /** Allow an approval for less than `amount` (partial authorization). */
  allowPartial: boolean;
  /** The gateway de-duplicates charges by this key: a retried charge is the same charge. */
  idempotencyKey: string;
}

export type ChargeResult =
  | { ok: true; chargeId: string; amount: number }
  | { ok: false; reason: 'declined' | 'insufficient_funds' };

export interface RefundRequest {
  chargeId: string;
  amount: number;
  idempotencyKey: string;
}

export type RefundResult = { ok: true; refundId: string } | { ok: false; reason: 'refund_failed' };

export interface PaymentGateway {
  vault(nonce: string): Promise<VaultResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
}
