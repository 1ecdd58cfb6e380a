import { appUserHandler } from '#shared/endpoints/app-user-handler.ts';

/** POST /v15/apps/users: create a user and get a token with the requested permissions (iOS, the Ruby gem's apps.users.create). */
export const handler = appUserHandler('apps-users-create', 'Create a user and a token with the requested permissions');
