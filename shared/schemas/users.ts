import * as z from '#shared/schemas/zod.ts';
import { cents, integerId } from './common.ts';
import { named } from './registry.ts';
import { MAX_CUSTOM_ATTRIBUTES } from './vocabularies.ts';

// ---------------------------------------------------------------------------------------------
// Requests: rules for user fields sent by clients, shared by user creation and update. Messages
// follow the error array's style: the humanized property is prefixed by the validator.

export const GENDERS = ['female', 'male', 'custom', 'prefer_not_to_answer'] as const;
export type Gender = (typeof GENDERS)[number];
export { MAX_CUSTOM_ATTRIBUTES } from './vocabularies.ts';

/**
 * NIST SP 800-63B's minimum for a user-chosen secret. (The published LevelUp create-user example's
 * 6-character `s3cr3t` is refused: security wins over replaying that example; docs/identity.md.)
 */
export const MIN_PASSWORD_LENGTH = 8;
/** scrypt work grows with input length; a bound keeps one request from buying unbounded CPU. */
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_NAME_LENGTH = 255;
export const MAX_CUSTOM_GENDER_LENGTH = 100;
export const MAX_CUSTOM_ATTRIBUTE_KEY_LENGTH = 64;
export const MAX_CUSTOM_ATTRIBUTE_VALUE_LENGTH = 1024;
export const CUSTOM_ATTRIBUTE_KEY = /^[A-Za-z0-9_.-]+$/;

const BLANK = "can't be blank";

export const emailField = z.pipe(
  z.string().check(z.trim(), z.minLength(1, { error: BLANK }), z.maxLength(254, { error: 'is too long (maximum is 254 characters)' })),
  z.email({ error: 'is not a valid email address' }),
);

export const passwordField = z
  .string()
  .check(
    z.minLength(MIN_PASSWORD_LENGTH, { error: `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)` }),
    z.maxLength(MAX_PASSWORD_LENGTH, { error: `is too long (maximum is ${MAX_PASSWORD_LENGTH} characters)` }),
  );

export const nameField = z
  .string()
  .check(z.trim(), z.minLength(1, { error: BLANK }), z.maxLength(MAX_NAME_LENGTH, { error: `is too long (maximum is ${MAX_NAME_LENGTH} characters)` }));

/** A real calendar date `YYYY-MM-DD`, not in the future (UTC). */
function isPastOrTodayDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  return value <= new Date().toISOString().slice(0, 10);
}

/**
 * Birthday as `YYYY-MM-DD`. The iOS SDK sends an ISO 8601 timestamp (`1980-01-01T00:00:00-05:00`);
 * its calendar date (before any offset) is taken, since a birthday has no time of day.
 */
export const bornAtField = z
  .pipe(
    z.string().check(z.trim()),
    z.transform((value) => /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value)?.[1] ?? value),
  )
  .check(
    z.refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value), { error: 'must be a date in the format YYYY-MM-DD', abort: true }),
    z.refine(isPastOrTodayDate, { error: 'must be a real date that is not in the future' }),
  );

export const genderField = z.enum(GENDERS, { error: `must be one of ${GENDERS.join(', ')} or null` });

export const customGenderField = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: BLANK }),
    z.maxLength(MAX_CUSTOM_GENDER_LENGTH, { error: `is too long (maximum is ${MAX_CUSTOM_GENDER_LENGTH} characters)` }),
  );

/** Digits with the usual separators (`(123) 123-1234`, `+1 617 555 0100`): 7 to 15 digits as in E.164. */
export const phoneField = z.string().check(
  z.trim(),
  z.regex(/^\+?[0-9().\-\s]+$/, { error: 'must contain only digits, spaces and + ( ) - .', abort: true }),
  z.refine(
    (value) => {
      const digits = value.replace(/\D/g, '').length;
      return digits >= 7 && digits <= 15;
    },
    { error: 'must have between 7 and 15 digits' },
  ),
);

export const customAttributesField = z
  .record(
    z.string(),
    z.nullable(
      z
        .string({ error: 'value must be a string or null' })
        .check(z.maxLength(MAX_CUSTOM_ATTRIBUTE_VALUE_LENGTH, { error: `value is too long (maximum is ${MAX_CUSTOM_ATTRIBUTE_VALUE_LENGTH} characters)` })),
    ),
    { error: 'must be an object of string values' },
  )
  .check(
    z.superRefine((attributes, context) => {
      for (const key of Object.keys(attributes)) {
        if (key.length > MAX_CUSTOM_ATTRIBUTE_KEY_LENGTH || !CUSTOM_ATTRIBUTE_KEY.test(key)) {
          context.addIssue({
            code: 'custom',
            message: `key ${JSON.stringify(key.slice(0, 80))} must be 1 to ${MAX_CUSTOM_ATTRIBUTE_KEY_LENGTH} letters, digits, _ . or -`,
          });
        }
      }
      if (Object.keys(attributes).length > MAX_CUSTOM_ATTRIBUTES) {
        context.addIssue({ code: 'custom', message: `are limited to ${MAX_CUSTOM_ATTRIBUTES} keys per app` });
      }
    }),
  );

/** `POST /v14/users`. Optional profile fields the iOS SDK sends at sign-up are kept; unknown keys are ignored. */
export const createUserBody = z.object({
  api_key: z.string().check(z.trim(), z.minLength(1, { error: BLANK })),
  user: z.object({
    email: emailField,
    first_name: nameField,
    last_name: nameField,
    password: passwordField,
    born_at: z.nullish(bornAtField),
    gender: z.nullish(genderField),
    phone: z.nullish(phoneField),
  }),
});

/**
 * `PUT /v15/users`: any subset. The iOS and C# SDKs send the new password as `new_password`;
 * it is accepted as a synonym of `password`.
 */
export const updateUserBody = z.object({
  user: z
    .object({
      born_at: z.optional(z.nullable(bornAtField)),
      custom_attributes: z.optional(customAttributesField),
      email: z.optional(emailField),
      first_name: z.optional(nameField),
      last_name: z.optional(nameField),
      gender: z.optional(z.nullable(genderField)),
      custom_gender: z.optional(z.nullable(customGenderField)),
      password: z.optional(passwordField),
      new_password: z.optional(passwordField),
      phone: z.optional(z.nullable(phoneField)),
    })
    .check(
      z.refine((user) => user.password === undefined || user.new_password === undefined || user.password === user.new_password, {
        error: 'and new_password differ; send one of them',
        path: ['password'],
      }),
    ),
});

// ---------------------------------------------------------------------------------------------
// Responses

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

export const issuedAccessToken = named(
  'AccessToken',
  z.object({
    access_token: z.object({
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
    }),
  }),
);

export const paymentTokenResponse = z.object({
  payment_token: z.object({ data: z.string().check(z.describe('QR code data a POS scans')), id: integerId }),
});

export type NewUser = z.output<typeof createUserBody>['user'];

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
