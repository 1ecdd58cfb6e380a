import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { and, attributeExists, attributeMissing, equals } from '#shared/db/conditions.ts';
import { nextId } from '#shared/db/ids.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { UNKNOWN_USER_PASSWORD_HASH, sha256, verifyPassword } from '#shared/auth/secrets.ts';
import { MAX_TOKEN_ANCESTORS, issueTokenWithExpiry, revokeTokens, type Credentials, type MerchantPrincipal, type UserPrincipal } from '#shared/auth/tokens.ts';
import { ApiKey, clientSecretMatches } from '#shared/domain/identity/apps.ts';
import { Login } from '#shared/domain/identity/entities.ts';
import {
  ACCOUNT_LOGIN_FAILURES,
  CLIENT_LOGIN_FAILURES,
  clearWindowItem,
  release,
  releaseItem,
  reserve,
  type Reservation,
  type WindowLimit,
} from '#shared/domain/rate-limits.ts';
import { invalidApiKey, invalidLogin, rateLimited, unauthorized, unprocessable } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { recordLoginLockout } from '#shared/metrics.ts';
import { MERCHANT_PERMISSIONS, PERMISSIONS, USER_PERMISSIONS, type Permission } from '#shared/routes.ts';

export interface IssuedAccessToken {
  token: string;
  app_id: number;
  user_id: number | null;
  merchant_id: number | null;
}

/**
 * A refused login (locked account or capped client): a structured `login_locked` log line for the
 * investigation; the lockouts themselves are counted as a metric where they start (`logIn`).
 */
function logRefusal(fields: { scope: 'account' | 'client'; client: string; retry_after_s: number }): void {
  log('warn', 'login_locked', fields);
}

function lockout(scope: 'account' | 'client', client: string, retryAfter: number) {
  logRefusal({ scope, client, retry_after_s: retryAfter });
  return scope === 'account'
    ? rateLimited(
        'access_token',
        'Too many failed logins for this account; try again after the Retry-After interval or reset the password.',
        'login_locked',
        retryAfter,
      )
    : rateLimited('access_token', 'Too many failed logins from this client; try again after the Retry-After interval.', 'too_many_failed_logins', retryAfter);
}

/** Gives back the hits of an attempt that does not count as a failed login. */
async function releaseAll(held: [WindowLimit, string, Reservation][]): Promise<void> {
  await Promise.all(held.filter(([, , reservation]) => reservation.allowed).map(([limit, subject]) => release(limit, subject)));
}

/**
 * Every attempt is counted before the password is checked (one conditional update per window, in
 * parallel with the reads), so a burst of concurrent guesses cannot all pass a check made before any was
 * counted. A refused window gives the other one its hit back.
 */
async function admit(client: string, username?: string): Promise<[WindowLimit, string, Reservation][]> {
  const subjects: [WindowLimit, string][] = [
    [CLIENT_LOGIN_FAILURES, client],
    ...(username === undefined ? [] : [[ACCOUNT_LOGIN_FAILURES, username] as [WindowLimit, string]]),
  ];
  const held = await Promise.all(
    subjects.map(async ([limit, subject]) => [limit, subject, await reserve(limit, subject)] as [WindowLimit, string, Reservation]),
  );
  const refused = held.find(([, , reservation]) => !reservation.allowed);
  if (refused) {
    await releaseAll(held);
    const retryAfter = (refused[2] as { retryAfterSeconds: number }).retryAfterSeconds;
    throw lockout(refused[0] === ACCOUNT_LOGIN_FAILURES ? 'account' : 'client', client, retryAfter);
  }
  return held;
}

/**
 * Username-and-password grant. A user login yields an unlimited token with every user permission;
 * a merchant login a merchant token. The attempt is counted against the account and the client while
 * the API key and the login are read (one round trip); a locked account or client is refused before any
 * password check (429). The password is verified even when the username is unknown (unknown usernames
 * lock like real ones), so neither timing nor answers reveal which usernames exist. A success gives its
 * hits back: it forgives the account's earlier failures and does not count against the client.
 */
export async function logIn(input: { apiKey: string; username: string; password: string; client: string }): Promise<IssuedAccessToken> {
  const username = input.username.trim().toLowerCase();
  const apiKeyKey = keys.apiKey(sha256(input.apiKey));
  const loginKey = keys.login(username);
  const [[apiKeyItem, loginItem], held] = await Promise.all([readItems([apiKeyKey, loginKey], { consistent: true }), admit(input.client, username)]);
  const apiKey = ApiKey.from(apiKeyItem);
  const login = Login.from(loginItem);
  const passwordMatches = await verifyPassword(input.password, login?.password_hash ?? UNKNOWN_USER_PASSWORD_HASH);
  if (!apiKey) {
    // Not a password guess: the answer says nothing about the password.
    await releaseAll(held);
    throw invalidApiKey();
  }
  if (!login || !login.password_hash || !passwordMatches) {
    // This failure fills the account's window: its logins are locked from now until the window ends.
    const account = held.find(([limit]) => limit === ACCOUNT_LOGIN_FAILURES)?.[2];
    if (account?.allowed && account.state.count >= ACCOUNT_LOGIN_FAILURES.limit) recordLoginLockout(login?.subject === 'merchant' ? 'merchant' : 'user');
    throw invalidLogin();
  }

  // Issued only if the password is still the one just verified (a concurrent change or reset wins), and a staff
  // member's role the one read, in the same transaction that forgives the account's failures and gives the client its hit back.
  const passwordHolds = equals('password_hash', login.password_hash);
  const guard = [
    Login.at(username).conditionCheck(login.role === undefined ? passwordHolds : and<'password_hash' | 'role'>(passwordHolds, equals('role', login.role))),
    clearWindowItem(ACCOUNT_LOGIN_FAILURES, username),
    releaseItem(CLIENT_LOGIN_FAILURES, input.client),
  ];
  const appId = apiKey.app_id;
  let issued: IssuedAccessToken | undefined;
  if (login.subject === 'user' && login.user_id !== undefined) {
    const token = await issueTokenWithExpiry({ subject: 'user', userId: login.user_id, appId, permissions: USER_PERMISSIONS, unlimited: true }, guard);
    issued = token && { token: token.token, app_id: appId, user_id: login.user_id, merchant_id: null };
  } else if (login.subject === 'merchant' && login.merchant_id !== undefined) {
    // Before the token: a login that cannot be given its person id issues no token it cannot answer.
    const personId = login.user_id ?? (await retryTransient(() => assignLoginPersonId(username)));
    // A staff member's login: the token carries them and their role (a role change revokes their tokens).
    const staff = login.staff_id !== undefined && login.role !== undefined ? { staffId: login.staff_id, role: login.role } : undefined;
    const token = await issueTokenWithExpiry(
      { subject: 'merchant', merchantId: login.merchant_id, appId, permissions: MERCHANT_PERMISSIONS, ...(staff ? { staff } : {}) },
      guard,
    );
    issued = token && { token: token.token, app_id: appId, user_id: personId, merchant_id: login.merchant_id };
  }
  // Not issued: the password changed since it was verified (or the login is not a user's or a merchant's).
  if (!issued) throw invalidLogin();
  return issued;
}

/**
 * A merchant login created before merchant logins had a person id gets one on its first successful
 * login; a concurrent login that assigned one first wins, and both answer that one.
 */
async function assignLoginPersonId(username: string): Promise<number> {
  const candidate = await nextId('user');
  const login = Login.at(username);
  try {
    await db().send(
      new UpdateCommand(login.update({ set: { user_id: candidate } }, and(attributeExists('password_hash'), attributeMissing('user_id'))).Update),
    );
    return candidate;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const storedId = (await login.get({ consistent: true }))?.user_id;
    if (storedId === undefined) throw invalidLogin();
    return storedId;
  }
}

/**
 * App grant (api_key + client_secret, the Ruby gem's create_for_app): a token for the app itself,
 * with no user or merchant. Attempts count against the client like logins; a success gives its hit back.
 */
export async function authenticateApp(input: { apiKey: string; clientSecret: string; client: string }): Promise<IssuedAccessToken> {
  const apiKeyKey = keys.apiKey(sha256(input.apiKey));
  const [[apiKeyItem]] = await Promise.all([readItems([apiKeyKey], { consistent: true }), admit(input.client)]);
  const record = ApiKey.from(apiKeyItem);
  if (!record) throw invalidApiKey();
  if (!clientSecretMatches(record, input.clientSecret))
    throw unprocessable('access_token', 'client_secret', 'Client secret is invalid.', 'invalid_client_secret');
  const { token } = (await issueTokenWithExpiry({ subject: 'app', appId: record.app_id }, [releaseItem(CLIENT_LOGIN_FAILURES, input.client)]))!;
  return { token, app_id: record.app_id, user_id: null, merchant_id: null };
}

function permissionError(message: string, code: string) {
  return unprocessable('access_token', 'permission_keynames', message, code);
}

/**
 * A new token of the same subject and app limited to the requested permissions, all of which the
 * presented token must hold. A downgraded user token is never unlimited: it cannot change the account.
 * It expires with its parent and dies when its parent (or any token in its chain) is revoked.
 */
export async function downgrade(principal: UserPrincipal | MerchantPrincipal, requested: readonly string[]): Promise<IssuedAccessToken> {
  const isPermission = (name: string): name is Permission => (PERMISSIONS as readonly string[]).includes(name);
  const unknown = requested.filter((name) => !isPermission(name));
  if (unknown.length > 0) throw permissionError(`Unknown permissions: ${unknown.join(', ')}`, 'unknown_permission');
  const permissions = [...new Set(requested.filter(isPermission))];
  const notHeld = permissions.filter((permission) => !principal.permissions.includes(permission));
  if (notHeld.length > 0) throw permissionError(`The access token does not have these permissions: ${notHeld.join(', ')}`, 'not_held');
  const ancestors = [...principal.ancestors, principal.tokenHash];
  if (ancestors.length > MAX_TOKEN_ANCESTORS) {
    throw unprocessable(
      'access_token',
      'base',
      `A token may be downgraded at most ${MAX_TOKEN_ANCESTORS} times in a chain; downgrade an earlier one.`,
      'too_deep',
    );
  }
  const lifetime = { expiresAt: principal.expiresAt, ancestors };

  if (principal.kind === 'user') {
    const { token } = (await issueTokenWithExpiry({
      subject: 'user',
      userId: principal.userId,
      appId: principal.appId,
      permissions,
      unlimited: false,
      ...lifetime,
    }))!;
    return { token, app_id: principal.appId, user_id: principal.userId, merchant_id: null };
  }
  // A staff member's token stays theirs: its downgrades act (and are revoked) as them.
  const staff = principal.staff && { staff: principal.staff };
  const { token } = (await issueTokenWithExpiry({
    subject: 'merchant',
    merchantId: principal.merchantId,
    appId: principal.appId,
    permissions,
    ...staff,
    ...lifetime,
  }))!;
  return { token, app_id: principal.appId, user_id: null, merchant_id: principal.merchantId };
}

/** Logout: revokes every token the request was sent with (tokens made from them die with them). */
export async function revokePresented(credentials: Credentials): Promise<void> {
  const hashes = [credentials.user, credentials.merchant, credentials.app].flatMap((principal) => (principal ? [principal.tokenHash] : []));
  if (hashes.length === 0) throw unauthorized();
  await revokeTokens(hashes);
}

/** Dispatches on the body's shape: a top-level client_secret is the app grant, anything else a login. */
export async function createAccessToken(
  body: { client_secret?: string; api_key?: string; access_token?: { api_key?: string; client_id?: string; username: string; password: string } },
  client: string,
): Promise<IssuedAccessToken> {
  if (body.client_secret !== undefined) return authenticateApp({ apiKey: body.api_key ?? '', clientSecret: body.client_secret, client });
  const login = body.access_token!;
  return logIn({ apiKey: login.api_key ?? login.client_id ?? '', username: login.username, password: login.password, client });
}
