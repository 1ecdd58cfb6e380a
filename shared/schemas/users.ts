import * as z from '#shared/schemas/zod.ts';
import { MAX_CUSTOM_ATTRIBUTES } from './vocabularies.ts';

// Rules for user fields sent by clients, shared by user creation and update. Messages
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

export type NewUser = z.output<typeof createUserBody>['user'];
