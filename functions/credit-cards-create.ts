import * as z from 'zod';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { unprocessable } from '#shared/errors.ts';
import { addCreditCard, serializeCreditCard } from '#shared/domain/credit-cards.ts';
import { creditCardResponse } from '#shared/schemas/credit-cards.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

/** Longer than any gateway nonce; anything longer is not a nonce. */
const MAX_NONCE_LENGTH = 4096;

/**
 * The contract names the field `gateway_payment_nonce`; clients built for the Braintree-backed
 * API send it branded, `braintree_payment_nonce`. Either is accepted (the first non-blank one, in
 * this order). Other fields real clients send (postal_code, the encrypted_* fields of legacy
 * client-side encryption) are ignored.
 */
const NONCE_FIELDS = ['gateway_payment_nonce', 'braintree_payment_nonce'] as const;

const body = z.object({
  credit_card: z.looseObject({
    gateway_payment_nonce: z.string().max(MAX_NONCE_LENGTH).optional(),
    braintree_payment_nonce: z.string().max(MAX_NONCE_LENGTH).optional(),
  }),
});

function submittedNonce(card: z.output<typeof body>['credit_card']): { field: string; nonce: string } | undefined {
  for (const field of NONCE_FIELDS) {
    const nonce = card[field]?.trim();
    if (nonce) return { field, nonce };
  }
  return undefined;
}

export const handler = apiHandler('credit-cards-create', { responses: { 200: creditCardResponse, 409: apiErrors }, summary: 'Create a credit card', body, bodyObject: 'credit_card' }, async (request) => {
  const user = requireUser(request);
  const submitted = submittedNonce(request.body.credit_card);
  if (!submitted) throw unprocessable('credit_card', 'gateway_payment_nonce', "Gateway payment nonce can't be blank", 'missing');
  return ok(serializeCreditCard(await addCreditCard(user.userId, submitted.nonce, submitted.field)));
});
