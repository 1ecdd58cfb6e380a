import { apiHandler, noContent } from '#shared/http/handler.ts';
import { completePasswordReset } from '#shared/domain/identity/password-resets.ts';
import { passwordResetCompletion } from '#shared/schemas/identity-requests.ts';

/** POST /v15/password_resets: the reset page sets the new password with the emailed link's secret (204). */
export const handler = apiHandler(
  'password-resets-create',
  {
    body: passwordResetCompletion,
    bodyObject: 'password_reset',
    summary: "Set a new password with a password-reset link's secret (the reset page calls this)",
  },
  async (request) => {
    const { token, password } = request.body.password_reset;
    await completePasswordReset(token, password);
    return noContent();
  },
);
