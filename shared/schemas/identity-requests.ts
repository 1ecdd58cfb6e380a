import * as z from '#shared/schemas/zod.ts';
import { bornAtField, customAttributesField, emailField, genderField, nameField, passwordField, phoneField } from './users.ts';

/**
 * Request bodies of the identity operations added for LevelUp's SDKs (sdk-operations section I):
 * app and user access tokens, logout, permissions requests, registration lookup, password resets.
 * User fields (email, names, password rules) come from shared/domain/user-input.ts.
 */

const BLANK = "can't be blank";

const loginFields = z.object({
  api_key: z.optional(z.string().check(z.trim(), z.minLength(1, { error: BLANK }), z.maxLength(256))),
  /** The PowerShell module's name for api_key (Android calls it a deprecated alias). */
  client_id: z.optional(z.string().check(z.trim(), z.minLength(1, { error: BLANK }), z.maxLength(256))),
  username: z.string().check(z.trim(), z.minLength(1, { error: BLANK }), z.maxLength(254)),
  password: z.string().check(z.minLength(1, { error: BLANK }), z.maxLength(1024)),
  // Sent by the mobile SDKs; device binding is not part of this service.
  device_identifier: z.optional(z.string().check(z.maxLength(256))),
});

/**
 * `POST /v15/access_tokens` and `/v14/access_tokens`: one path, two grants told apart by the body's shape.
 * - App grant (the Ruby gem's create_for_app), not wrapped: `{"api_key", "client_secret"}`.
 * - Login (users and merchants): `{"access_token": {"api_key" (or "client_id"), "username", "password", "device_identifier"?}}`.
 * A body with a top-level `client_secret` is the app grant; any other is a login.
 */
export const accessTokenRequest = z
  .object({
    access_token: z.optional(loginFields).check(z.describe('Login (user or merchant): api_key (or its alias client_id), username, password')),
    api_key: z.optional(z.string().check(z.trim(), z.maxLength(256))).check(z.describe("App grant: the app's API key (with client_secret, not wrapped)")),
    client_secret: z.optional(z.string().check(z.maxLength(256))).check(z.describe('App grant: the client secret issued with the API key')),
  })
  .check(
    z.superRefine((body, context) => {
      if (body.client_secret !== undefined) {
        if (!body.api_key) context.addIssue({ code: 'custom', path: ['api_key'], message: BLANK });
        if (body.client_secret === '') context.addIssue({ code: 'custom', path: ['client_secret'], message: BLANK });
        return;
      }
      if (body.access_token === undefined) {
        context.addIssue({ code: 'custom', path: ['access_token', 'username'], message: BLANK });
        return;
      }
      if (!body.access_token.api_key && !body.access_token.client_id) context.addIssue({ code: 'custom', path: ['access_token', 'api_key'], message: BLANK });
    }),
  );

export type AccessTokenRequest = z.output<typeof accessTokenRequest>;

/** Keynames an app may ask for (validated by the domain against the permission list, so the error is the docs' own). */
export const permissionKeynames = z.array(z.string().check(z.maxLength(64))).check(z.maxLength(20));

/** `POST /v14/passwords`, not wrapped (C#, iOS, Android): checked by the handler so the error is the docs' own. */
export const passwordResetRequest = z.object({
  email: z.optional(z.unknown()).check(z.meta({ type: 'string', description: "The account's email address" })),
});

/** `POST /v15/password_resets`: what the reset page submits. */
export const passwordResetCompletion = z.object({
  password_reset: z.object({
    token: z.string().check(z.minLength(1, { error: BLANK }), z.maxLength(128), z.describe('The secret from the emailed link (the part after #token=)')),
    password: passwordField.check(z.describe('The new password')),
  }),
});

/**
 * `POST /v15/apps/users` (iOS, Ruby, docs) and Android's `POST /v15/users`: not wrapped at the top.
 * `api_key` may be null (the Ruby gem sends it so when it authenticates with an app token instead).
 * Android's `terms_accepted` and other unknown keys are ignored.
 */
export const appUserRequest = z.object({
  api_key: z.nullish(z.string().check(z.trim(), z.maxLength(256))),
  user: z.object({
    email: emailField,
    first_name: nameField,
    last_name: nameField,
    password: z.optional(passwordField),
    phone: z.nullish(phoneField),
    born_at: z.nullish(bornAtField),
    gender: z.nullish(genderField),
    custom_attributes: z.optional(customAttributesField),
  }),
  permission_keynames: z.optional(permissionKeynames).check(z.describe('User permissions the returned token gets (exactly these)')),
});

/** `GET /v15/registration?api_key=&email=`. */
export const registrationQuery = z.object({
  api_key: z.string().check(z.trim(), z.minLength(1, { error: BLANK }), z.maxLength(256)),
  email: z.string().check(z.trim(), z.minLength(1, { error: BLANK }), z.maxLength(254)),
});

/** `POST /v15/apps/permissions_requests` (the Ruby gem's apps.permissions_requests.create). */
export const permissionsRequestCreation = z.object({
  permissions_request: z.object({
    email: emailField.check(z.describe("The user's email")),
    permission_keynames: z.optional(permissionKeynames).check(z.describe('User permissions the app asks for')),
  }),
});

/** `PUT /v15/permissions_requests/:id`: the user's answer. */
export const permissionsRequestAnswer = z.object({
  permissions_request: z.object({
    state: z.enum(['accepted', 'rejected'], { error: 'must be accepted or rejected' }),
  }),
});
