import * as z from '#shared/schemas/zod.ts';

// Request: POST /v15/credit_cards

/** Longer than any gateway nonce or client-side ciphertext; anything longer is neither. */
const MAX_CARD_FIELD_LENGTH = 4096;
const cardField = (description: string) => z.optional(z.string().check(z.maxLength(MAX_CARD_FIELD_LENGTH))).check(z.describe(description));

export { NONCE_FIELDS, ENCRYPTED_FIELDS } from './vocabularies.ts';

/**
 * Two shapes: the contract's nonce, or the client-side encrypted fields the C#, iOS, Android and Ruby
 * SDKs send (`encrypted_number`, `encrypted_cvv`, `encrypted_expiration_month`,
 * `encrypted_expiration_year`, `postal_code`). Unknown fields are ignored.
 */
export const createCreditCardBody = z.object({
  credit_card: z.looseObject({
    gateway_payment_nonce: cardField("The payment gateway's nonce for the card (the contract's shape)."),
    braintree_payment_nonce: cardField('The same nonce under its branded name.'),
    encrypted_number: cardField(
      "The card number, encrypted by the gateway's client-side encryption library (the SDKs' shape; all four encrypted fields together).",
    ),
    encrypted_cvv: cardField('The CVV, encrypted client-side.'),
    encrypted_expiration_month: cardField('The expiration month, encrypted client-side.'),
    encrypted_expiration_year: cardField('The expiration year, encrypted client-side.'),
    postal_code: z
      .nullish(z.string().check(z.maxLength(32)))
      .check(z.describe("The card's billing postal code, in the clear; passed to the gateway, never stored.")),
  }),
});

export type CreditCardBody = z.output<typeof createCreditCardBody>['credit_card'];

/** PUT /v15/apps/payment_preference: `{"payment_preference": {"preload": true, "preload_value_amount": 2500}}` or `{"preload": false}`. */
export const paymentPreferenceBody = z.object({
  payment_preference: z.object({
    preload: z.boolean(),
    preload_value_amount: z.nullish(z.number().check(z.int())),
  }),
});
export type PaymentPreferenceRequest = z.output<typeof paymentPreferenceBody>['payment_preference'];
