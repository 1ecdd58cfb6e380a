import { apiHandler } from '#shared/http/handler.ts';
import { facebookConnectionSpec, serveFacebookConnectionGone } from '#shared/endpoints/facebook-connection.ts';

/** POST /v14/facebook_connection (I13, Android): always 410 Gone in the error format (docs/app-surface.md, "Facebook"). */
export const handler = apiHandler(
  'facebook-connection-create',
  { ...facebookConnectionSpec, summary: 'Link Facebook (gone: 410)' },
  serveFacebookConnectionGone,
);
