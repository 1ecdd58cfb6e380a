import { apiHandler } from '#shared/http/handler.ts';
import { facebookConnectionGone } from '#shared/domain/app-surface/facebook.ts';

/**
 * DELETE /v14/facebook_connection (I14, Android): always 410 Gone in the error format, whatever the
 * body or token: Facebook's old login API no longer exists (docs/app-surface.md, "Facebook").
 */
export const handler = apiHandler(
  'facebook-connection-delete',
  {
    summary: 'Unlink Facebook (gone: 410)',
    description: "Facebook's old login API no longer exists: answered 410 with code `gone`. Users sign in with email and password.",
  },
  async () => {
    throw facebookConnectionGone();
  },
);
