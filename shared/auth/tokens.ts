import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { createItem } from '#shared/db/transactions.ts';
import { randomSecret, sha256 } from '#shared/auth/secrets.ts';
import type { PresentedTokens } from '#shared/auth/header.ts';
import type { Permission } from '#shared/routes.ts';

export interface UserPrincipal {
  kind: 'user';
  userId: number;
  appId: number;
  permissions: readonly Permission[];
  /** Granted by username and password (not a downgrade): may change the account itself. */
  unlimited: boolean;
}

export interface MerchantPrincipal {
  kind: 'merchant';
  merchantId: number;
  appId: number;
  permissions: readonly Permission[];
}

export type Principal = UserPrincipal | MerchantPrincipal;

export interface Credentials {
  user?: UserPrincipal;
  merchant?: MerchantPrincipal;
}

interface TokenItem {
  subject: 'user' | 'merchant';
  user_id?: number;
  merchant_id?: number;
  app_id: number;
  permissions: Permission[];
  unlimited?: boolean;
  ttl?: number;
}

export type TokenGrant =
  | { subject: 'user'; userId: number; appId: number; permissions: readonly Permission[]; unlimited: boolean }
  | { subject: 'merchant'; merchantId: number; appId: number; permissions: readonly Permission[] };

/** Creates a token; only its SHA-256 digest is stored. The plaintext is returned once, to the caller. */
export async function issueToken(grant: TokenGrant): Promise<string> {
  const token = randomSecret(32);
  const item: TokenItem & Record<string, unknown> = {
    ...keys.token(sha256(token)),
    entity: 'AccessToken',
    subject: grant.subject,
    app_id: grant.appId,
    permissions: [...grant.permissions],
    created_at: new Date().toISOString(),
    ...(grant.subject === 'user' ? { user_id: grant.userId, unlimited: grant.unlimited } : { merchant_id: grant.merchantId }),
  };
  // 256 random bits: a taken key means something is badly wrong, never a collision to retry.
  if (!(await createItem(item))) throw new Error('a new token digest is already stored');
  return token;
}

function toPrincipal(item: TokenItem): Principal | undefined {
  if (item.ttl !== undefined && item.ttl * 1000 <= Date.now()) return undefined;
  if (item.subject === 'user' && item.user_id !== undefined) {
    return { kind: 'user', userId: item.user_id, appId: item.app_id, permissions: item.permissions, unlimited: item.unlimited === true };
  }
  if (item.subject === 'merchant' && item.merchant_id !== undefined) {
    return { kind: 'merchant', merchantId: item.merchant_id, appId: item.app_id, permissions: item.permissions };
  }
  return undefined;
}

async function loadTokens(tokens: string[]): Promise<Map<string, Principal>> {
  const found = new Map<string, Principal>();
  const hashes = tokens.map(sha256);
  if (hashes.length === 1) {
    const result = await db().send(new GetCommand({ TableName: table(), Key: keys.token(hashes[0]!) }));
    const principal = result.Item && toPrincipal(result.Item as TokenItem);
    if (principal) found.set(tokens[0]!, principal);
    return found;
  }
  const items = await readItems(hashes.map((hash) => keys.token(hash)), { consistent: false });
  items.forEach((item, index) => {
    const principal = item && toPrincipal(item as unknown as TokenItem);
    if (principal) found.set(tokens[index]!, principal);
  });
  return found;
}

/**
 * Resolves presented tokens to principals with one read. Returns undefined when any presented
 * token is unknown, expired, or tagged with a kind it is not: such a request is unauthorized.
 */
export async function resolveCredentials(presented: PresentedTokens): Promise<Credentials | undefined> {
  const all = [...presented.untagged, ...(presented.user ? [presented.user] : []), ...(presented.merchant ? [presented.merchant] : [])];
  const principals = await loadTokens(all);
  const credentials: Credentials = {};
  const assign = (principal: Principal): boolean => {
    if (credentials[principal.kind] !== undefined) return false;
    if (principal.kind === 'user') credentials.user = principal;
    else credentials.merchant = principal;
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
