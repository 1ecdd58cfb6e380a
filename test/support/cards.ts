import { randomUUID } from 'node:crypto';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { SANDBOX_NONCES } from '#shared/payments/sandbox.ts';

/** A nonce for a card no one else has: the sandbox base nonce plus a unique suffix. */
export function uniqueNonce(base: string = SANDBOX_NONCES.valid): string {
  return `${base}-${randomUUID()}`;
}

/**
 * Adds a sandbox card to the user through the domain library (as the demo seed does).
 * Without a nonce it is a fresh valid Visa; pass e.g. uniqueNonce(SANDBOX_NONCES.declines) for another behaviour.
 */
export async function cardFixture(userId: number, nonce: string = uniqueNonce()) {
  return addCreditCard(userId, nonce);
}
