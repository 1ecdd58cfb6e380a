import { appUserHandler } from '#shared/endpoints/app-user-handler.ts';

/** POST /v15/users (Android SDK 2.1.3): as POST /v15/apps/users, with the api_key in the body. */
export const handler = appUserHandler(
  'users-create-with-permissions',
  'Create a user and a token with the requested permissions (Android form of POST /v15/apps/users)',
);
