import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { queryAll, readItems } from '#shared/db/reads.ts';
import { createItem, putNew, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { deleteItems } from '#shared/db/deletes.ts';
import { randomSecret, sha256 } from '#shared/auth/secrets.ts';
import type { PresentedTokens } from '#shared/auth/header.ts';
import type { Permission, StaffRole } from '#shared/routes.ts';
import { epochSeconds } from '#shared/time.ts';

/**
 * Access tokens: 256 random bits, stored only as their SHA-256 digest, each with a lifetime (the
 * item's `ttl`: DynamoDB's TTL deletes it some time after, and every read checks it first).
 * Every token is indexed under its account (gsi1, `keys.accountTokensIndex`) so an account's tokens
 * can be revoked together; a token made from another (a downgrade) lists its ancestors and dies
 * with any of them: resolving it checks they still exist. docs/identity.md "Token lifecycle".
 */

/** Lifetime of a token from its issue, by subject (seconds). A downgrade never outlives its parent. */
export const TOKEN_LIFETIME_SECONDS = {
  user: 90 * 24 * 3600,
  merchant: 90 * 24 * 3600,
  /** The LevelUp docs call app tokens indefinite; a year bounds a leaked one, and the Ruby gem simply asks again. */
  app: 365 * 24 * 3600,
} as const;

/** How deep a chain of downgrades may go (each link is one more read when the token is used). */
export const MAX_TOKEN_ANCESTORS = 3;

interface TokenBase {
  appId: number;
  permissions: readonly Permission[];
  /** SHA-256 of the presented token: what revocation deletes. */
  tokenHash: string;
  /** Epoch seconds after which the token is refused. */
  expiresAt: number;
  /** Digests of the tokens this one was made from (nearest last); empty for a token made from a credential. */
  ancestors: readonly string[];
}

export interface UserPrincipal extends TokenBase {
  kind: 'user';
  userId: number;
  /** Granted by username and password (not a downgrade): may change the account itself. */
  unlimited: boolean;
}

export interface MerchantPrincipal extends TokenBase {
  kind: 'merchant';
  merchantId: number;
  /** The staff member the token was issued to; absent for the merchant's shared login (POS setups from before staff). */
  staff?: { staffId: number; role: StaffRole };
}

/** An app acting as itself (api_key + client_secret): asks users for permissions, creates users. */
export interface AppPrincipal extends TokenBase {
  kind: 'app';
}

export type Principal = UserPrincipal | MerchantPrincipal | AppPrincipal;

export interface Credentials {
  user?: UserPrincipal;
  merchant?: MerchantPrincipal;
  app?: AppPrincipal;
}

interface TokenItem {
  pk: string;
  subject: 'user' | 'merchant' | 'app';
  user_id?: number;
  merchant_id?: number;
  /** A staff member's token (absent for the merchant's shared login). */
  staff_id?: number;
  role?: StaffRole;
  app_id: number;
  permissions: Permission[];
  unlimited?: boolean;
  ttl?: number;
  created_at?: string;
  ancestors?: string[];
}

interface GrantLifetime {
  /** Epoch seconds; defaults to now + TOKEN_LIFETIME_SECONDS of the subject (and never later than that). */
  expiresAt?: number;
  /** The chain this token is made from (downgrades). */
  ancestors?: readonly string[];
}

export type TokenGrant =
  | ({ subject: 'user'; userId: number; appId: number; permissions: readonly Permission[]; unlimited: boolean } & GrantLifetime)
  | ({ subject: 'merchant'; merchantId: number; appId: number; permissions: readonly Permission[]; staff?: StaffGrant } & GrantLifetime)
  | ({ subject: 'app'; appId: number } & GrantLifetime);

/** A staff member's merchant token: who (a staff id is unique across merchants) and their role when it was issued. */
export interface StaffGrant {
  staffId: number;
  role: StaffRole;
}

/** Whose tokens an index entry lists: a staff member's tokens are theirs (removing them revokes exactly those), not the merchant's. */
export type AccountRef = { subject: 'user' | 'merchant' | 'app' | 'staff'; id: number };

function accountOf(grant: TokenGrant): AccountRef {
  if (grant.subject === 'user') return { subject: 'user', id: grant.userId };
  if (grant.subject === 'merchant') return grant.staff ? { subject: 'staff', id: grant.staff.staffId } : { subject: 'merchant', id: grant.merchantId };
  return { subject: 'app', id: grant.appId };
}

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/** A new token and the item that stores it (its digest only); for callers that write it inside their own transaction (`putNew(item)`). */
export function newTokenItem(grant: TokenGrant): IssuedToken & { item: Record<string, unknown> } {
  const token = randomSecret(32);
  const hash = sha256(token);
  const now = new Date();
  const longest = epochSeconds(now) + TOKEN_LIFETIME_SECONDS[grant.subject];
  const expiresAt = Math.min(grant.expiresAt ?? longest, longest);
  const account = accountOf(grant);
  const createdAt = now.toISOString();
  const item: Record<string, unknown> = {
    ...keys.token(hash),
    ...keys.accountTokensIndex(account.subject, account.id, createdAt, hash),
    entity: 'AccessToken',
    subject: grant.subject,
    app_id: grant.appId,
    permissions: grant.subject === 'app' ? [] : [...grant.permissions],
    created_at: createdAt,
    ttl: expiresAt,
    ...(grant.ancestors && grant.ancestors.length > 0 ? { ancestors: [...grant.ancestors] } : {}),
    ...(grant.subject === 'user' ? { user_id: grant.userId, unlimited: grant.unlimited } : {}),
    ...(grant.subject === 'merchant' ? { merchant_id: grant.merchantId } : {}),
    ...(grant.subject === 'merchant' && grant.staff ? { staff_id: grant.staff.staffId, role: grant.staff.role } : {}),
  };
  return { token, expiresAt, item };
}

/**
 * Creates a token; only its SHA-256 digest is stored. The plaintext is returned once, to the caller.
 * `alongside` items are written in the same transaction: a login passes a ConditionCheck on the password
 * hash it verified (so a token is never issued on a password that changed in the meantime) and gives
 * back its failed-login counts. Undefined when a condition of `alongside` failed (nothing was written).
 */
export async function issueTokenWithExpiry(grant: TokenGrant, alongside: readonly TransactItem[] = []): Promise<IssuedToken | undefined> {
  const { token, expiresAt, item } = newTokenItem(grant);
  if (alongside.length > 0) {
    const outcome = await transactWrite(() => [...alongside, putNew(item)]);
    return outcome.committed ? { token, expiresAt } : undefined;
  }
  // 256 random bits: a taken key means something is badly wrong, never a collision to retry.
  if (!(await createItem(item))) throw new Error('a new token digest is already stored');
  return { token, expiresAt };
}

/** Creates a token and returns its plaintext (shown once). */
export async function issueToken(grant: TokenGrant): Promise<string> {
  return (await issueTokenWithExpiry(grant))!.token;
}

/**
 * When a token stops working: its `ttl`. Tokens issued before lifetimes existed have none; they get the
 * lifetime of their subject from their creation (and, lacking the account index, survive a password change
 * until then: docs/identity.md).
 */
function expiryOf(item: TokenItem): number {
  if (item.ttl !== undefined) return item.ttl;
  const created = Date.parse(String(item.created_at ?? ''));
  return Number.isNaN(created) ? 0 : Math.floor(created / 1000) + TOKEN_LIFETIME_SECONDS[item.subject];
}

function toPrincipal(item: TokenItem): Principal | undefined {
  const expiresAt = expiryOf(item);
  if (expiresAt <= epochSeconds()) return undefined;
  const base = { appId: item.app_id, tokenHash: keys.tokenHashOf(item), expiresAt, ancestors: item.ancestors ?? [] };
  if (item.subject === 'user' && item.user_id !== undefined) {
    return { kind: 'user', userId: item.user_id, permissions: item.permissions, unlimited: item.unlimited === true, ...base };
  }
  if (item.subject === 'merchant' && item.merchant_id !== undefined) {
    const staff = item.staff_id !== undefined && item.role !== undefined ? { staff: { staffId: item.staff_id, role: item.role } } : {};
    return { kind: 'merchant', merchantId: item.merchant_id, permissions: item.permissions, ...staff, ...base };
  }
  if (item.subject === 'app') return { kind: 'app', permissions: [], ...base };
  return undefined;
}

/** Token items by digest, in one round trip (GetItem for one, one BatchGetItem for more). */
async function getAll(hashes: readonly string[]): Promise<Map<string, TokenItem>> {
  const found = new Map<string, TokenItem>();
  const unique = [...new Set(hashes)];
  if (unique.length === 0) return found;
  if (unique.length === 1) {
    const result = await db().send(new GetCommand({ TableName: table(), Key: keys.token(unique[0]!) }));
    if (result.Item) found.set(unique[0]!, result.Item as TokenItem);
    return found;
  }
  const items = await readItems(
    unique.map((hash) => keys.token(hash)),
    { consistent: false },
  );
  items.forEach((item, index) => {
    if (item) found.set(unique[index]!, item as unknown as TokenItem);
  });
  return found;
}

/**
 * Principals of the presented tokens: one read, plus one more only when a token was made from
 * others (a downgrade), to check its ancestors still exist and have not expired.
 */
async function loadTokens(tokens: string[]): Promise<Map<string, Principal>> {
  const hashes = tokens.map(sha256);
  const items = await getAll(hashes);
  const principals = new Map<string, Principal>();
  for (const [index, token] of tokens.entries()) {
    const item = items.get(hashes[index]!);
    const principal = item && toPrincipal(item);
    if (principal) principals.set(token, principal);
  }
  const ancestors = [...principals.values()].flatMap((principal) => principal.ancestors);
  if (ancestors.length === 0) return principals;
  const living = await getAll(ancestors);
  for (const [token, principal] of principals) {
    const dead = principal.ancestors.some((hash) => {
      const ancestor = living.get(hash);
      return !ancestor || toPrincipal(ancestor) === undefined;
    });
    if (dead) principals.delete(token);
  }
  return principals;
}

/**
 * Resolves presented tokens to principals. Returns undefined when any presented token is unknown,
 * expired, revoked (or made from a revoked one), or tagged with a kind it is not: such a request is unauthorized.
 */
export async function resolveCredentials(presented: PresentedTokens): Promise<Credentials | undefined> {
  const all = [...presented.untagged, ...(presented.user ? [presented.user] : []), ...(presented.merchant ? [presented.merchant] : [])];
  const principals = await loadTokens(all);
  const credentials: Credentials = {};
  const assign = (principal: Principal): boolean => {
    if (credentials[principal.kind] !== undefined) return false;
    (credentials as Record<string, Principal>)[principal.kind] = principal;
    return true;
  };
  for (const token of presented.untagged) {
    const principal = principals.get(token);
    if (!principal || !assign(principal)) return undefined;
  }
  for (const kind of ['user', 'merchant'] as const) {
    const token = presented[kind];
    if (token === undefined) continue;
    const principal = principals.get(token);
    if (!principal || principal.kind !== kind || !assign(principal)) return undefined;
  }
  return credentials;
}

/** Deletes tokens by digest. Tokens made from them die on their next use (their ancestors are checked). */
export async function revokeTokens(hashes: readonly string[]): Promise<void> {
  await deleteItems([...new Set(hashes)].map((hash) => keys.token(hash)));
}

/**
 * Revokes every token of an account but those in `keep` (the session that changed the password).
 * Reads the account's token index (eventually consistent: a token issued within about a second before
 * may be missed; a login racing a password change cannot issue at all, see logIn's guard).
 */
export async function revokeAccountTokens(account: AccountRef, keep: readonly string[] = []): Promise<number> {
  const index = keys.accountTokensPartition(account.subject, account.id);
  const items = await queryAll({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': index },
    ProjectionExpression: 'pk',
  });
  const hashes = items.map((item) => keys.tokenHashOf(item)).filter((hash) => !keep.includes(hash));
  await revokeTokens(hashes);
  return hashes.length;
}
