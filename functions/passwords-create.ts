import * as z from '#shared/schemas/zod.ts';
import { apiHandler, noContent } from '#shared/http/handler.ts';
import { requestPasswordReset } from '#shared/domain/identity/password-resets.ts';
import { emailField } from '#shared/schemas/users.ts';
import { unprocessable } from '#shared/errors.ts';
import { passwordResetRequest } from '#shared/schemas/identity-requests.ts';

/**
 * POST /v14/passwords `{"email"}`: queues a single-use reset link for that email, sent after the answer when a
 * user has it. 204 either way, from the same writes, so neither the answer nor its timing says which emails are
 * registered; blank or malformed: the docs' 422; 429 with Retry-After past the per-client or per-email window
 * (docs/identity.md "Password reset").
 */
export const handler = apiHandler(
  'passwords-create',
  { body: passwordResetRequest, bodyObject: 'base', summary: 'Send a password-reset email (204 whether or not the email is registered)' },
  async (request) => {
    const email = z.pipe(z.string(), emailField).safeParse(request.body.email);
    if (!email.success) throw unprocessable('base', 'email', 'Email is invalid', 'invalid');
    await requestPasswordReset(email.data, request.sourceIp, request.baseUrl);
    return noContent();
  },
);
