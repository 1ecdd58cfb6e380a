import * as z from 'zod';
import { GENDERS } from '#shared/domain/users.ts';
import { cents, integerId } from './common.ts';
import { named } from './registry.ts';

const userFields = {
  id: integerId,
  born_at: z.string().nullable().describe('Birthday, YYYY-MM-DD'),
  cause_id: integerId.nullable(),
  connected_to_facebook: z.boolean(),
  custom_attributes: z.record(z.string(), z.string()).describe("Key-value data scoped by the API key of the request's token"),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  gender: z.enum(GENDERS).nullable(),
  global_credit_amount: cents,
  merchants_visited_count: z.number().int(),
  orders_count: z.number().int(),
  terms_accepted_at: z.string().nullable(),
  total_savings_amount: cents,
};

/** v14 (create) omits app_id, debit_card_only, phone and user_app_id. */
export const userV14 = named('UserV14', z.object(userFields), 'The user as POST /v14/users answers it.');

export const user = named(
  'User',
  z.object({
    ...userFields,
    app_id: integerId.describe('App used to generate the token'),
    custom_gender: z.string().nullable().describe("The user's own input when gender is custom"),
    debit_card_only: z.boolean(),
    phone: z.string().nullable(),
    user_app_id: integerId,
  }),
);

export const userResponse = named('UserResponse', z.object({ user }));

export const issuedAccessToken = named(
  'AccessToken',
  z.object({
    access_token: z.object({
      token: z.string().describe('Send as `Authorization: token <token>`'),
      app_id: integerId.optional(),
      user_id: integerId.nullable(),
      merchant_id: integerId.nullable(),
    }),
  }),
);

export const paymentTokenResponse = z.object({
  payment_token: z.object({ data: z.string().describe('QR code data a POS scans'), id: integerId }),
});
