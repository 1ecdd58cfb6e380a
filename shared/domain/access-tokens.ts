import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { UNKNOWN_USER_PASSWORD_HASH, verifyPassword } from '#shared/auth/secrets.ts';
import { issueToken, type Principal } from '#shared/auth/tokens.ts';
import { appIdForApiKey } from '#shared/domain/apps.ts';
import { unauthorized, unprocessable, type ApiError } from '#shared/errors.ts';
import { MERCHANT_PERMISSIONS, PERMISSIONS, USER_PERMISSIONS, type Permission } from '#shared/routes.ts';

interface LoginItem {
  subject: 'user' | 'merchant';
  user_id?: number;
  merchant_id?: number;
  password_hash: string;
}

export interface IssuedAccessToken {
  token: string;
  app_id: number;
  user_id: number | null;
  merchant_id: number | null;
}

const INVALID_API_KEY = () => unauthorized('API key is not valid.', 'access_token', 'api_key', 'invalid_api_key');
const INVALID_LOGIN = () => unauthorized('Invalid username or password', 'access_token', 'base', 'invalid_credentials');

/**
 * Username-and-password grant. A user login yields an unlimited token with every user permission;
 * a merchant login a merchant token. The password is verified even when the username is unknown,
 * so response time does not reveal which usernames exist.
 */
export async function logIn(input: { apiKey: string; username: string; password: string }): Promise<IssuedAccessToken> {
  const [appId, login] = await Promise.all([
    appIdForApiKey(input.apiKey),
    db().send(new GetCommand({ TableName: table(), Key: keys.login(input.username), ConsistentRead: true })),
  ]);
  const item = login.Item as LoginItem | undefined;
  const passwordMatches = await verifyPassword(input.password, item?.password_hash ?? UNKNOWN_USER_PASSWORD_HASH);
  if (appId === undefined) throw INVALID_API_KEY();
  if (!item || !passwordMatches) throw INVALID_LOGIN();

  if (item.subject === 'user' && item.user_id !== undefined) {
    const token = await issueToken({ subject: 'user', userId: item.user_id, appId, permissions: USER_PERMISSIONS, unlimited: true });
    return { token, app_id: appId, user_id: item.user_id, merchant_id: null };
  }
  if (item.subject === 'merchant' && item.merchant_id !== undefined) {
    const token = await issueToken({ subject: 'merchant', merchantId: item.merchant_id, appId, permissions: MERCHANT_PERMISSIONS });
    return { token, app_id: appId, user_id: null, merchant_id: item.merchant_id };
  }
  throw INVALID_LOGIN();
}

function permissionError(message: string, code: string): ApiError {
  return unprocessable('access_token', 'permission_keynames', message, code);
}

/**
 * A new token of the same subject and app limited to the requested permissions, all of which the
 * presented token must hold. A downgraded user token is never unlimited: it cannot change the account.
 */
export async function downgrade(principal: Principal, requested: readonly string[]): Promise<IssuedAccessToken> {
  const unknown = requested.filter((name) => !(PERMISSIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw permissionError(`Unknown permissions: ${unknown.join(', ')}`, 'unknown_permission');
  const permissions = [...new Set(requested as Permission[])];
  const notHeld = permissions.filter((permission) => !principal.permissions.includes(permission));
  if (notHeld.length > 0) throw permissionError(`The access token does not have these permissions: ${notHeld.join(', ')}`, 'not_held');

  if (principal.kind === 'user') {
    const token = await issueToken({ subject: 'user', userId: principal.userId, appId: principal.appId, permissions, unlimited: false });
    return { token, app_id: principal.appId, user_id: principal.userId, merchant_id: null };
  }
  const token = await issueToken({ subject: 'merchant', merchantId: principal.merchantId, appId: principal.appId, permissions });
  return { token, app_id: principal.appId, user_id: null, merchant_id: principal.merchantId };
}
