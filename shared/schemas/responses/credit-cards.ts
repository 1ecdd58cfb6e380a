/** What the credit card and billing operations answer (the requests: shared/schemas/credit-cards.ts). */
import * as z from '#shared/schemas/zod.ts';
import { integerId } from './common.ts';
import { named, resource } from './registry.ts';

export const creditCard = named(
  'CreditCard',
  z.object({
    bin: z.string().check(z.describe('First six digits')),
    debit: z.boolean().check(z.describe('A debit card (the iOS and Android SDKs read it)')),
    description: z.string(),
    expiration_month: z.number().check(z.int()),
    expiration_year: z.number().check(z.int()),
    id: integerId,
    last_4: z.string(),
    nickname: z.string(),
    promoted: z.boolean().check(z.describe("Whether it is the user's promoted payment instrument")),
    state: z.enum(['active', 'inactive']).check(z.describe('`active` may be charged, `inactive` may not')),
    type: z.string().check(z.describe('Card brand')),
  }),
);
export const creditCardResponse = named('CreditCardResponse', z.object({ credit_card: creditCard }));

// The app's billing screens (SDK reference A11-A14)

export const PAYMENT_PREFERENCE_TYPES = ['monthly_billing', 'preload', 'instant_billing'] as const;

/** GET /v15/payment_method: the card the user is billed with (the promoted one). */
export const paymentMethodResponse = resource('PaymentMethod', 'payment_method', {
  type: z.enum(['credit_card', 'debit_card']).check(z.describe('This service bills cards only (no Apple Pay or carrier billing)')),
  description: z.string().check(z.describe('"Visa *1111"')),
  metadata: z.object({
    expiration_month: z.string(),
    expiration_year: z.string(),
    issuer: z.string(),
    last_4: z.string(),
  }),
  payment_preference_type: z.enum(PAYMENT_PREFERENCE_TYPES),
  monthly_billing_day: z.nullable(z.number().check(z.int())),
  monthly_transaction_limit_amount: z.nullable(z.number().check(z.int())),
  preload_reload_threshold_amount: z.nullable(z.number().check(z.int())),
  preload_value_amount: z.nullable(z.number().check(z.int())),
});

/** GET /v15/payment_options_summary */
export const paymentOptionsSummaryResponse = resource('PaymentOptionsSummary', 'payment_options_summary', {
  options: z.array(z.enum(['preload', 'monthly_billing'])),
  max_credit_limit_amount: z.number().check(z.int()),
  monthly_billing_day: z.number().check(z.int()),
  preload_reload_threshold_amount: z.number().check(z.int()),
  preload_value_amount: z.number().check(z.int()),
});
