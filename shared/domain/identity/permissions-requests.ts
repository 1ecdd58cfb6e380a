import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { above, and, atMost, attributeMissing, equals, itemIsNew, or, stateIs } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { putNew, transactWrite } from '#shared/db/transactions.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { newTokenItem, revokeTokens } from '#shared/auth/tokens.ts';
import { sha256 } from '#shared/auth/secrets.ts';
import { getApp } from '#shared/domain/identity/apps.ts';
import { userPermissions } from '#shared/domain/identity/app-users.ts';
import { escapeHtml } from '#shared/mail/mailer.ts';
import { composedMailItem, type OutboxMail } from '#shared/db/mail-outbox.ts';
import { consumeOrRefuse, PERMISSIONS_REQUESTS_PER_APP, PERMISSIONS_REQUESTS_PER_EMAIL } from '#shared/domain/rate-limits.ts';
import { getUser } from '#shared/domain/identity/users.ts';
import { Login } from '#shared/domain/identity/entities.ts';
import { postToCheckedAddress } from '#shared/domain/events/delivery.ts';
import { notFound, unprocessable } from '#shared/errors.ts';
import { optionalEnv } from '#shared/env.ts';
import { log } from '#shared/log.ts';
import type { Permission } from '#shared/routes.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';

/**
 * Permissions requests (docs/identity.md "Permissions requests"): an app (app token) asks a user, by
 * email, for some user permissions; the user sees the one pending request and accepts or rejects it;
 * on acceptance the app gets a user token with exactly those permissions, delivered once: POSTed to
 * the app's callback URL when it has one (https only in AWS), or else handed out by the app's next
 * poll. Tokens are stored hashed, so a token is never kept to be shown again: a later poll shows null.
 */
export const PERMISSIONS_REQUEST_STATES = ['pending', 'accepted', 'rejected'] as const;
export type PermissionsRequestState = (typeof PERMISSIONS_REQUEST_STATES)[number];

/** A request nobody answers in a week counts as rejected, and no longer blocks a new one. */
export const PENDING_LIFETIME_SECONDS = 7 * 24 * 3600;
/** How long the callback POST may take before the token is left for polling instead. */
export const CALLBACK_TIMEOUT_MS = 5000;

/** What each user permission lets the app do, as the user-side request shows it (the LevelUp permissions list). */
export const PERMISSION_DESCRIPTIONS: Record<string, string> = {
  read_user_basic_info: 'Read your name, email, birthday and gender',
  manage_user_campaigns: 'View your credit and claim campaigns',
  create_orders: 'Create orders on your behalf',
  read_user_orders: 'Read your orders',
  manage_user_addresses: 'Read your addresses and add new ones',
  manage_user_payment_methods: 'Manage your payment methods',
  read_qr_code: 'Read your payment QR code',
};

interface RequestAttributes {
  request_id: number;
  app_id: number;
  /** Set when the user answers: the request is addressed to an email, whoever has it (or nobody). */
  user_id?: number;
  email: string;
  permission_keynames: Permission[];
  state: PermissionsRequestState;
  created_at: string;
  expires_at: number;
  token_delivered?: boolean;
  /** When the user answered (ISO). */
  answered_at?: string;
}

const PermissionsRequest = defineEntity<RequestAttributes>()({ entity: 'PermissionsRequest', key: keys.permissionsRequest });
type RequestItem = EntityItem<typeof PermissionsRequest>;

/** The one pending request to an email: its id, until it expires (expires_at, and ttl for DynamoDB to remove it). */
const PendingPermissionsRequest = defineEntity<{ request_id: number; expires_at: number; ttl: number }>()({
  entity: 'PendingPermissionsRequest',
  key: keys.emailPendingPermissionsRequest,
});

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const TOO_MANY_REQUESTS = { object: 'permissions_request', message: 'Too many permissions requests; try again later.' };

const error = (property: string, message: string, code: string) => unprocessable('permissions_request', property, message, code);

function effectiveState(item: RequestItem, now = epochSeconds()): PermissionsRequestState {
  return item.state === 'pending' && item.expires_at <= now ? 'rejected' : item.state;
}

async function getRequest(requestId: number): Promise<RequestItem | undefined> {
  return PermissionsRequest.at(requestId).get({ consistent: true });
}

/** The app-side representation (I7); `token` only when this very call delivered it. */
function appView(item: RequestItem, token: string | null = null) {
  return {
    permissions_request: {
      app_id: item.app_id,
      email: item.email,
      id: item.request_id,
      permission_keynames: item.permission_keynames,
      state: effectiveState(item),
      token,
    },
  };
}

/**
 * POST /v15/apps/permissions_requests: counts the request against the app's and the email's windows (429 with
 * Retry-After past either), then one transaction writes the request, the email's pending pointer (one pending
 * request per email) and the notice to the outbox. The same reads and writes whether or not a user has the email,
 * and the same answer: the notice is composed after the answer, for a user only (`composePermissionsRequestMail`),
 * and the request waits for whoever holds the email (docs/identity.md "Permissions requests").
 */
export async function createPermissionsRequest(appId: number, input: { email: string; keynames: readonly string[] | undefined }) {
  const permissions = userPermissions(input.keynames);
  if (!permissions) throw error('permission_keynames', 'Permissions missing or keynames invalid', 'invalid_permissions');
  const email = input.email.trim();
  await consumeOrRefuse(PERMISSIONS_REQUESTS_PER_APP, String(appId), TOO_MANY_REQUESTS);
  await consumeOrRefuse(PERMISSIONS_REQUESTS_PER_EMAIL, email.toLowerCase(), TOO_MANY_REQUESTS);
  const requestId = await nextId('permissions_request');
  const now = epochSeconds();
  const item: RequestAttributes = {
    request_id: requestId,
    app_id: appId,
    email,
    permission_keynames: permissions,
    state: 'pending',
    created_at: isoSeconds(),
    expires_at: now + PENDING_LIFETIME_SECONDS,
  };
  const outcome = await transactWrite(() => [
    PermissionsRequest.at(requestId).putNew(item),
    // One pending request per email; an unanswered one stops blocking when it expires.
    PendingPermissionsRequest.at(email).put(
      { request_id: requestId, expires_at: item.expires_at, ttl: item.expires_at },
      or(itemIsNew, atMost('expires_at', now)),
    ),
    composedMailItem(
      `permreq:${requestId}`,
      { to: email, composer: 'permissions-request', inputs: { request_id: requestId } },
      new Date(now * 1000).toISOString(),
    ),
  ]);
  if (!outcome.committed) throw error('email', 'This email already has a pending permissions request; it must be answered first.', 'pending_exists');
  return { permissions_request: { app_id: appId, id: requestId, permission_keynames: permissions, state: 'pending' as const } };
}

/**
 * The notice of a permissions request, or undefined when there is nothing to send: no user has the email, or
 * the request is no longer pending. Composed by the mail outbox's sender, after the request was answered.
 */
export async function composePermissionsRequestMail(to: string, requestId: number): Promise<OutboxMail | undefined> {
  const [login, item] = await Promise.all([Login.at(to).get({ consistent: true }), getRequest(requestId)]);
  if (!login || login.subject !== 'user' || !item || !sameEmail(item.email, to) || effectiveState(item) !== 'pending') return undefined;
  const app = await getApp(item.app_id);
  const appName = app?.name ?? `App ${item.app_id}`;
  const lines = item.permission_keynames.map((name) => PERMISSION_DESCRIPTIONS[name] ?? name);
  return {
    to,
    subject: `${appName} asks for access to your account`,
    text: [
      `${appName} would like these permissions on your account:`,
      ...lines.map((line) => `- ${line}`),
      '',
      'Open your app to accept or reject the request.',
    ].join('\n'),
    html: [
      `<p>${escapeHtml(appName)} would like these permissions on your account:</p>`,
      `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
      '<p>Open your app to accept or reject the request.</p>',
    ].join('\n'),
  };
}

/**
 * Issues the accepted request's token if it was never delivered: one transaction marks it delivered
 * and writes the token, so concurrent polls (or a poll racing the callback) issue it once.
 */
async function deliverToken(item: RequestItem): Promise<{ token: string; hash: string } | undefined> {
  if (item.user_id === undefined) return undefined;
  const issued = newTokenItem({ subject: 'user', userId: item.user_id, appId: item.app_id, permissions: item.permission_keynames, unlimited: false });
  const outcome = await transactWrite(() => [
    PermissionsRequest.at(item.request_id).update({ set: { token_delivered: true } }, and(stateIs('accepted'), attributeMissing('token_delivered'))),
    putNew(issued.item),
  ]);
  return outcome.committed ? { token: issued.token, hash: sha256(issued.token) } : undefined;
}

/** GET /v15/apps/permissions_requests/:id: only the app that asked sees it (404 with no body otherwise). */
export async function showPermissionsRequest(appId: number, requestId: number) {
  const item = await getRequest(requestId);
  if (!item || item.app_id !== appId) throw notFound();
  const delivered = item.state === 'accepted' && !item.token_delivered ? await deliverToken(item) : undefined;
  return appView(item, delivered?.token ?? null);
}

/** The user-side representation (the docs' GET /v15/permissions_requests). */
async function userView(item: RequestItem) {
  const app = await getApp(item.app_id);
  return {
    permissions_request: {
      accept_text: 'Accept',
      app_id: item.app_id,
      created_at: item.created_at,
      description: `${app?.name ?? `App ${item.app_id}`} has requested to be added to your account and would like the following permissions`,
      id: item.request_id,
      reject_text: 'Reject',
      state: effectiveState(item),
      permissions: item.permission_keynames.map((keyname) => ({ permission: { keyname, description: PERMISSION_DESCRIPTIONS[keyname] ?? keyname } })),
    },
  };
}

/** The email a user holds now (requests are addressed to emails). */
async function emailOf(userId: number): Promise<string> {
  const user = await getUser(userId);
  if (!user) throw notFound();
  return user.email;
}

/** GET /v15/permissions_requests: the pending request to the user's email (404 with no body when there is none). */
export async function pendingPermissionsRequest(userId: number) {
  const email = await emailOf(userId);
  const pointer = await PendingPermissionsRequest.at(email).get({ consistent: true });
  if (!pointer || Number(pointer.expires_at) <= epochSeconds()) throw notFound();
  const item = await getRequest(Number(pointer.request_id));
  if (!item || !sameEmail(item.email, email) || effectiveState(item) !== 'pending') throw notFound();
  return userView(item);
}

/** Whether the token may be POSTed to this URL: https only, except on the local stack (ALLOW_HTTP_CALLBACKS). */
export function callbackAllowed(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && optionalEnv('ALLOW_HTTP_CALLBACKS') === 'true');
  } catch {
    return false;
  }
}

/**
 * POSTs the accepted request's token to the app's callback; any failure leaves the token for the app's next poll.
 * The callback is a URL the app chose: it goes out as webhooks do (`postToCheckedAddress`), resolved once, every
 * address public (or the local stack's loopback), connected to the checked address, no redirect followed.
 */
async function postToCallback(item: RequestItem, url: string): Promise<void> {
  const delivered = await deliverToken(item);
  if (!delivered) return;
  const body = JSON.stringify({ permissions_request: { id: item.request_id, state: 'accepted', token: delivered.token } });
  const answer = await postToCheckedAddress(url, { 'Content-Type': 'application/json', Accept: 'application/json' }, body, CALLBACK_TIMEOUT_MS);
  if (answer.status !== null && answer.status >= 200 && answer.status < 300) return;
  // Not delivered after all: that token dies, and the next poll issues another.
  await revokeTokens([delivered.hash]);
  await db().send(new UpdateCommand(PermissionsRequest.at(item.request_id).update({ remove: ['token_delivered'] }).Update));
  log('warn', 'permissions_request_callback_refused', { request_id: item.request_id, status: answer.status, error: answer.error });
}

/** PUT /v15/permissions_requests/:id: the user accepts or rejects their pending request (404 when it is not theirs). */
export async function answerPermissionsRequest(userId: number, requestId: number, state: 'accepted' | 'rejected') {
  const [item, email] = await Promise.all([getRequest(requestId), emailOf(userId)]);
  if (!item || !sameEmail(item.email, email)) throw notFound();
  if (effectiveState(item) !== 'pending') throw error('state', `This permissions request is already ${effectiveState(item)}.`, 'already_answered');
  const outcome = await transactWrite(() => [
    // The user who answers is the one the token (if any) is for.
    PermissionsRequest.at(requestId).update(
      { set: { state, answered_at: isoSeconds(), user_id: userId } },
      and(stateIs('pending'), above('expires_at', epochSeconds())),
    ),
    // The email's pointer goes if it is this request's (a request older than email-keyed pointers has none here).
    PendingPermissionsRequest.at(item.email).delete(or(itemIsNew, equals('request_id', requestId))),
  ]);
  if (!outcome.committed) throw error('state', 'This permissions request was answered meanwhile.', 'already_answered');
  const answered: RequestItem = { ...item, state, user_id: userId };
  if (state === 'accepted') {
    const callback = (await getApp(item.app_id))?.permissions_request_callback_url;
    if (callback && callbackAllowed(callback)) await postToCallback(answered, callback);
  }
  return userView(answered);
}
