import { apiHandler } from '#shared/http/handler.ts';
import { facebookConnectionSpec, serveFacebookConnectionGone } from '#shared/endpoints/facebook-connection.ts';

/** DELETE /v14/facebook_connection (I14, Android): always 410 Gone in the error format (docs/app-surface.md, "Facebook"). */
export const handler = apiHandler(
  'facebook-connection-delete',
  { ...facebookConnectionSpec, summary: 'Unlink Facebook (gone: 410)' },
  serveFacebookConnectionGone,
);
