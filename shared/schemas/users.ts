import * as z from 'zod';
import { cents, integerId } from './common.ts';
import { named, schema } from './registry.ts';
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

export const emailField = /* @__PURE__ */ schema(() => z
  .string()
  .trim()
  .min(1, { error: BLANK })
  .max(254, { error: 'is too long (maximum is 254 characters)' })
  .pipe(z.email({ error: 'is not a valid email address' })));

export const passwordField = /* @__PURE__ */ schema(() => z
  .string()
  .min(MIN_PASSWORD_LENGTH, { error: `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)` })
  .max(MAX_PASSWORD_LENGTH, { error: `is too long (maximum is ${MAX_PASSWORD_LENGTH} characters)` }));

export const nameField = /* @__PURE__ */ schema(() => z
  .string()
  .trim()
  .min(1, { error: BLANK })
  .max(MAX_NAME_LENGTH, { error: `is too long (maximum is ${MAX_NAME_LENGTH} characters)` }));

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
export const bornAtField = /* @__PURE__ */ schema(() => z
  .string()
  .trim()
  .transform((value) => /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value)?.[1] ?? value)
  .refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value), { error: 'must be a date in the format YYYY-MM-DD', abort: true })
  .refine(isPastOrTodayDate, { error: 'must be a real date that is not in the future' }));

export const genderField = /* @__PURE__ */ schema(() => z.enum(GENDERS, { error: `must be one of ${GENDERS.join(', ')} or null` }));

export const customGenderField = /* @__PURE__ */ schema(() => z
  .string()
  .trim()
  .min(1, { error: BLANK })
  .max(MAX_CUSTOM_GENDER_LENGTH, { error: `is too long (maximum is ${MAX_CUSTOM_GENDER_LENGTH} characters)` }));

/** Digits with the usual separators (`(123) 123-1234`, `+1 617 555 0100`): 7 to 15 digits as in E.164. */
export const phoneField = /* @__PURE__ */ schema(() => z
  .string()
  .trim()
  .regex(/^\+?[0-9().\-\s]+$/, { error: 'must contain only digits, spaces and + ( ) - .', abort: true })
  .refine((value) => {
    const digits = value.replace(/\D/g, '').length;
    return digits >= 7 && digits <= 15;
  }, { error: 'must have between 7 and 15 digits' }));

export const customAttributesField = /* @__PURE__ */ schema(() => z
  .record(
    z.string(),
    z
      .string({ error: 'value must be a string or null' })
      .max(MAX_CUSTOM_ATTRIBUTE_VALUE_LENGTH, { error: `value is too long (maximum is ${MAX_CUSTOM_ATTRIBUTE_VALUE_LENGTH} characters)` })
      .nullable(),
    { error: 'must be an object of string values' },
  )
  .superRefine((attributes, context) => {
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
  }));

/** `POST /v14/users`. Optional profile fields the iOS SDK sends at sign-up are kept; unknown keys are ignored. */
export const createUserBody = /* @__PURE__ */ schema(() => z.object({
  api_key: z.string().trim().min(1, { error: BLANK }),
  user: z.object({
    email: emailField,
    first_name: nameField,
    last_name: nameField,
    password: passwordField,
    born_at: bornAtField.nullish(),
    gender: genderField.nullish(),
    phone: phoneField.nullish(),
  }),
}));

/**
 * `PUT /v15/users`: any subset. The iOS and C# SDKs send the new password as `new_password`;
 * it is accepted as a synonym of `password`.
 */
export const updateUserBody = /* @__PURE__ */ schema(() => z.object({
  user: z
    .object({
      born_at: bornAtField.nullable().optional(),
      custom_attributes: customAttributesField.optional(),
      email: emailField.optional(),
      first_name: nameField.optional(),
      last_name: nameField.optional(),
      gender: genderField.nullable().optional(),
      custom_gender: customGenderField.nullable().optional(),
      password: passwordField.optional(),
      new_password: passwordField.optional(),
      phone: phoneField.nullable().optional(),
    })
    .refine((user) => user.password === undefined || user.new_password === undefined || user.password === user.new_password, {
      error: 'and new_password differ; send one of them',
      path: ['password'],
    }),
}));


// ---------------------------------------------------------------------------------------------
// Responses

const userFields = /* @__PURE__ */ schema(() => ({
  id: integerId,
  born_at: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T12:00:00\+00:00$/)
    .nullable()
    .describe('Birthday: its date at midday UTC, `YYYY-MM-DDT12:00:00+00:00` (the datetime form the C#, iOS and Android SDKs parse; the same calendar day in any zone from UTC-11 to UTC+11). Sent as `YYYY-MM-DD` or an ISO 8601 datetime, of which the date is kept.'),
  cause_id: integerId.nullable(),
  connected_to_facebook: z.boolean(),
  custom_attributes: z.record(z.string(), z.string()).describe("Key-value data scoped by the API key of the request's token"),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  gender: z.enum(GENDERS).nullable(),
  global_credit_amount: cents,
  merchants_visited_count: z.number().int().describe('Merchants where the user has at least one completed order not refunded (a refund of the only one there takes the merchant off)'),
  orders_count: z.number().int().describe('Completed orders (every merchant, every app), not counting refunded ones'),
  terms_accepted_at: z.string().nullable(),
  total_savings_amount: cents.describe('Merchant-funded credit applied to those orders (their applied_discount_amount), in cents; a refund takes its order\'s back'),
}));

/** v14 (create) omits app_id, debit_card_only, phone and user_app_id. */
export const userV14 = /* @__PURE__ */ schema(() => named('UserV14', z.object(userFields), 'The user as POST /v14/users answers it.'));

export const user = /* @__PURE__ */ schema(() => named(
  'User',
  z.object({
    ...userFields,
    app_id: integerId.describe('App used to generate the token'),
    custom_gender: z.string().nullable().describe("The user's own input when gender is custom"),
    debit_card_only: z.boolean(),
    phone: z.string().nullable(),
    user_app_id: integerId,
  }),
));

export const userResponse = /* @__PURE__ */ schema(() => named('UserResponse', z.object({ user })));

export const issuedAccessToken = /* @__PURE__ */ schema(() => named(
  'AccessToken',
  z.object({
    access_token: z.object({
      token: z.string().describe('Send as `Authorization: token <token>`'),
      app_id: integerId.optional(),
      user_id: integerId.nullable().describe('The person who logged in: a user, or the person behind a merchant login (never null for a login); null for an app token and a downgraded merchant token'),
      merchant_id: integerId.nullable(),
    }),
  }),
));

export const paymentTokenResponse = /* @__PURE__ */ schema(() => z.object({
  payment_token: z.object({ data: z.string().describe('QR code data a POS scans'), id: integerId }),
}));

export type NewUser = z.output<typeof createUserBody>['user'];

/** GET /v15|v14/payment_token: the token plus the banner iOS shows (`message`) and what it suggests (`action`). */
export const paymentTokenShowResponse = /* @__PURE__ */ schema(() => z.object({
  payment_token: z.object({
    data: z.string().describe('QR code data a POS scans'),
    id: integerId,
    action: z.enum(['add_payment_method']).nullable().describe('`add_payment_method` when the user has no card to pay with (loyalty only)'),
    message: z.string().nullable().describe('Banner text for the app (no card, a card expiring soon), or null'),
  }),
}));

/** GET /v15/qr_codes (JSON form): the QR string with the tip and colour preferences already encoded. */
export const qrCodeResponse = /* @__PURE__ */ schema(() => z.object({ qr_code: z.object({ code: z.string().describe('Payment token data followed by the 8-character v3 preferences suffix') }) }));
