import { timingSafeEqual } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { putNew, transactWrite } from '#shared/db/transactions.ts';
import { randomSecret, sha256 } from '#shared/auth/secrets.ts';
import { revokeAccountTokens } from '#shared/auth/tokens.ts';
import { isoSeconds } from '#shared/time.ts';

export interface App {
  app_id: number;
  name: string;
  /** A global app lists every merchant's locations and sees a user's orders at any merchant. */
  global: boolean;
  merchant_ids: number[];
  /** Where an accepted permissions request is POSTed (https in AWS); null: the app polls. */
  permissions_request_callback_url?: string | null;
}

/**
 * Creates an app; its API key and client secret are returned once and stored only as digests (both
 * are 160+ random bits, so a plain SHA-256 is enough: there is nothing to brute-force).
 */
export async function createApp(input: {
  name: string;
  global: boolean;
  merchantIds?: number[];
  apiKey?: string;
  callbackUrl?: string | null;
}): Promise<{ app: App; apiKey: string; clientSecret: string }> {
  const appId = await nextId('app');
  const apiKey = input.apiKey ?? randomSecret(20);
  const clientSecret = randomSecret(32);
  const now = isoSeconds();
  const app: App = {
    app_id: appId,
    name: input.name,
    global: input.global,
    merchant_ids: input.merchantIds ?? [],
    permissions_request_callback_url: input.callbackUrl ?? null,
  };
  const outcome = await transactWrite(() => [
    putNew({ ...keys.app(appId), entity: 'App', ...app, created_at: now, updated_at: now }),
    putNew({ ...keys.apiKey(sha256(apiKey)), entity: 'ApiKey', app_id: appId, client_secret_hash: sha256(clientSecret), created_at: now }),
  ]);
  if (!outcome.committed) throw new Error(`app creation cancelled: ${outcome.reasons.join(',')}`);
  return { app, apiKey, clientSecret };
}

export async function getApp(appId: number): Promise<App | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.app(appId) }));
  return result.Item as App | undefined;
}

/** The app an API key belongs to, or undefined. */
export async function appIdForApiKey(apiKey: string): Promise<number | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.apiKey(sha256(apiKey)) }));
  return result.Item?.app_id as number | undefined;
}

/** The API key's stored record (app id and client secret digest) from a read the caller already made, or undefined. */
export interface ApiKeyRecord {
  app_id: number;
  client_secret_hash?: string;
}

/** True when the client secret is the one issued with this API key (constant-time comparison of digests). */
export function clientSecretMatches(record: ApiKeyRecord | undefined, clientSecret: string): boolean {
  const expected = Buffer.from(record?.client_secret_hash ?? sha256('no app has this secret'), 'hex');
  const actual = Buffer.from(sha256(clientSecret), 'hex');
  return record?.client_secret_hash !== undefined && timingSafeEqual(expected, actual);
}

/**
 * A new client secret for the app of an API key (shown once; apps created before client secrets existed
 * get their first one this way). The old secret stops working at once, and so does every app token made
 * with it. Undefined when no app has that API key.
 */
export async function rotateClientSecret(apiKey: string): Promise<{ appId: number; clientSecret: string } | undefined> {
  const clientSecret = randomSecret(32);
  let appId: number;
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.apiKey(sha256(apiKey)),
        UpdateExpression: 'SET client_secret_hash = :hash, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':hash': sha256(clientSecret), ':now': isoSeconds() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    appId = Number(result.Attributes?.app_id);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
  await revokeAccountTokens({ subject: 'app', id: appId });
  return { appId, clientSecret };
}
