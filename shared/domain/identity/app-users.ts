import { newTokenItem } from '#shared/auth/tokens.ts';
import { putNew } from '#shared/db/transactions.ts';
import { appIdForApiKey, getApp } from '#shared/domain/identity/apps.ts';
import { createUser, getUser, type UserInput, type UserItem } from '#shared/domain/identity/users.ts';
import { Login } from '#shared/domain/identity/entities.ts';
import { consumeOrRefuse, type WindowLimit } from '#shared/domain/rate-limits.ts';
import { ApiError, invalidApiKey, notFound, unprocessable } from '#shared/errors.ts';
import { USER_PERMISSIONS, type Permission } from '#shared/routes.ts';

/**
 * Users an app creates for itself (POST /v15/apps/users, Android's POST /v15/users) and the
 * registration lookup (GET /v15/registration). docs/identity.md.
 */

/** The docs' answer for a missing, empty or unknown keyname list (POST /v15/apps/users). */
export const PERMISSIONS_INVALID = () => unprocessable('user', 'base', 'Permissions missing or keynames invalid', 'invalid_permissions');
const EMAIL_TAKEN = () =>
  unprocessable(
    'user',
    'email',
    'Email is already associated with another app powered by LevelUp. If this is your account, you can go back to the login screen and log in using that email address and password.',
    'taken',
  );

/** A non-empty list of user permission keynames, without repeats; undefined when any is unknown (or a merchant's). */
export function userPermissions(keynames: readonly string[] | undefined): Permission[] | undefined {
  const isUserPermission = (name: string): name is Permission => (USER_PERMISSIONS as readonly string[]).includes(name);
  if (!keynames || keynames.length === 0) return undefined;
  if (!keynames.every(isUserPermission)) return undefined;
  return [...new Set(keynames.filter(isUserPermission))];
}

/**
 * The app a request acts for: the app token's, or the body's api_key's; both may be sent (the Ruby gem
 * does) and must then name the same app. An unknown or mismatched key is the docs' 422.
 */
export async function appOfRequest(object: string, appToken: { appId: number } | undefined, apiKey: string | null | undefined): Promise<number> {
  const keyAppId = apiKey ? await appIdForApiKey(apiKey) : undefined;
  if (apiKey && (keyAppId === undefined || (appToken && appToken.appId !== keyAppId))) throw invalidApiKey(object);
  const appId = appToken?.appId ?? keyAppId;
  if (appId === undefined) throw unprocessable(object, 'api_key', "Api key can't be blank", 'missing');
  return appId;
}

/**
 * Creates a user and, in the same transaction, a token for the app with exactly the requested user
 * permissions (never unlimited: it cannot change the account). Without a password the account cannot
 * log in until one is set through the reset flow.
 */
export async function createUserWithToken(
  appId: number,
  input: UserInput,
  keynames: readonly string[] | undefined,
): Promise<{ user: UserItem; token: string }> {
  const permissions = userPermissions(keynames);
  if (!permissions) throw PERMISSIONS_INVALID();
  let token = '';
  try {
    const user = await createUser(appId, input, (userId) => {
      const issued = newTokenItem({ subject: 'user', userId, appId, permissions, unlimited: false });
      token = issued.token;
      return [putNew(issued.item)];
    });
    return { user, token };
  } catch (error) {
    if (error instanceof ApiError && error.details?.[0]?.code === 'taken') throw EMAIL_TAKEN();
    throw error;
  }
}

/** The iOS stub's answer for an unknown email (GET /v15/registration). */
export const REGISTRATION_NOT_FOUND = () => notFound({ object: 'registration', property: 'email', message: 'Email not found.', code: 'not_found' });

/** Registration lookups per client per 15 minutes: the answer says whether an email is registered, so a client may not sweep a list. */
export const REGISTRATION_LOOKUPS_PER_CLIENT: WindowLimit = { name: 'registration-client', limit: 60, windowSeconds: 15 * 60 };

/**
 * GET /v15/registration: whether an email has an account here, and through which app. Every lookup
 * counts against the client; past the limit, 429 until the window ends.
 */
export async function lookUpRegistration(input: { apiKey: string; email: string; client: string }) {
  await consumeOrRefuse(REGISTRATION_LOOKUPS_PER_CLIENT, input.client, {
    object: 'registration',
    message: 'Too many registration lookups from this client; retry after the Retry-After interval.',
  });
  if ((await appIdForApiKey(input.apiKey)) === undefined) throw invalidApiKey('registration');
  const login = await Login.at(input.email).get({ consistent: false });
  if (!login || login.subject !== 'user') throw REGISTRATION_NOT_FOUND();
  const user = await getUser(Number(login.user_id));
  const app = user ? await getApp(Number(user.created_app_id)) : undefined;
  const appName = app?.name ?? 'this service';
  return {
    registration: {
      app_name: appName,
      description: `This email is registered through ${appName}. You can log in with that account's email and password.`,
      facebook: false,
    },
  };
}
