/** Users and access tokens as the identity operations answer them (the requests: shared/schemas/users.ts, identity-requests.ts). */
import * as z from '#shared/schemas/zod.ts';
import { GENDERS } from '#shared/schemas/users.ts';
import { cents, integerId } from './common.ts';
import { named, resource } from './registry.ts';

const userFields = {
  id: integerId,
  born_at: z
    .nullable(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T12:00:00\+00:00$/)))
    .check(
      z.describe(
        'Birthday: its date at midday UTC, `YYYY-MM-DDT12:00:00+00:00` (the datetime form the C#, iOS and Android SDKs parse; the same calendar day in any zone from UTC-11 to UTC+11). Sent as `YYYY-MM-DD` or an ISO 8601 datetime, of which the date is kept.',
      ),
    ),
  cause_id: z.nullable(integerId),
  connected_to_facebook: z.boolean(),
  custom_attributes: z.record(z.string(), z.string()).check(z.describe("Key-value data scoped by the API key of the request's token")),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  gender: z.nullable(z.enum(GENDERS)),
  global_credit_amount: cents,
  merchants_visited_count: z
    .number()
    .check(
      z.int(),
      z.describe('Merchants where the user has at least one completed order not refunded (a refund of the only one there takes the merchant off)'),
    ),
  orders_count: z.number().check(z.int(), z.describe('Completed orders (every merchant, every app), not counting refunded ones')),
  terms_accepted_at: z.nullable(z.string()),
  total_savings_amount: cents.check(
    z.describe("Merchant-funded credit applied to those orders (their applied_discount_amount), in cents; a refund takes its order's back"),
  ),
};

/** v14 (create) omits app_id, debit_card_only, phone and user_app_id. */
export const userV14 = named('UserV14', z.object(userFields), 'The user as POST /v14/users answers it.');

export const user = named(
  'User',
  z.object({
    ...userFields,
    app_id: integerId.check(z.describe('App used to generate the token')),
    custom_gender: z.nullable(z.string()).check(z.describe("The user's own input when gender is custom")),
    debit_card_only: z.boolean(),
    phone: z.nullable(z.string()),
    user_app_id: integerId,
  }),
);

export const userResponse = named('UserResponse', z.object({ user }));

export const issuedAccessToken = resource('AccessToken', 'access_token', {
  token: z.string().check(z.describe('Send as `Authorization: token <token>`')),
  app_id: z.optional(integerId),
  user_id: z
    .nullable(integerId)
    .check(
      z.describe(
        'The person who logged in: a user, or the person behind a merchant login (never null for a login); null for an app token and a downgraded merchant token',
      ),
    ),
  merchant_id: z.nullable(integerId),
});

export const paymentTokenResponse = z.object({
  payment_token: z.object({ data: z.string().check(z.describe('QR code data a POS scans')), id: integerId }),
});

/** GET /v15|v14/payment_token: the token plus the banner iOS shows (`message`) and what it suggests (`action`). */
export const paymentTokenShowResponse = z.object({
  payment_token: z.object({
    data: z.string().check(z.describe('QR code data a POS scans')),
    id: integerId,
    action: z.nullable(z.enum(['add_payment_method'])).check(z.describe('`add_payment_method` when the user has no card to pay with (loyalty only)')),
    message: z.nullable(z.string()).check(z.describe('Banner text for the app (no card, a card expiring soon), or null')),
  }),
});

/** GET /v15/qr_codes (JSON form): the QR string with the tip and colour preferences already encoded. */
export const qrCodeResponse = z.object({
  qr_code: z.object({ code: z.string().check(z.describe('Payment token data followed by the 8-character v3 preferences suffix')) }),
});

/** The answer of an app creating a user (POST /v15/apps/users): the user and a token with exactly the requested permissions. */
export const userWithAccessToken = z.object({
  user,
  access_token: z.object({
    token: z.string().check(z.describe('Send as `Authorization: token <token>`: it holds exactly the requested permissions')),
    app_id: z.number().check(z.int()),
    user_id: z.number().check(z.int()),
    merchant_id: z.null(),
  }),
});
