import * as z from 'zod';
import { apiHandler, noContent } from '#shared/http/handler.ts';
import { requestPasswordReset } from '#shared/domain/password-resets.ts';
import { emailField } from '#shared/schemas/users.ts';
import { unprocessable } from '#shared/errors.ts';
import { passwordResetRequest } from '#shared/schemas/identity-requests.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

/**
 * POST /v14/passwords `{"email"}`: emails a single-use reset link when a user has that email. 204 either
 * way, so the answer says nothing about which emails are registered; blank or malformed: the docs' 422;
 * 503 with Retry-After when the mail service fails (docs/identity.md).
 */
export const handler = apiHandler(
  'passwords-create',
  { body: passwordResetRequest, bodyObject: 'base', responses: process.env.OMIT_RESPONSE_SCHEMAS ? undefined : { 204: null, 503: apiErrors }, summary: 'Send a password-reset email (204 whether or not the email is registered)' },
  async (request) => {
    const email = z.string().pipe(emailField).safeParse(request.body.email);
    if (!email.success) throw unprocessable('base', 'email', 'Email is invalid', 'invalid');
    await requestPasswordReset(email.data, request.baseUrl);
    return noContent();
  },
);
