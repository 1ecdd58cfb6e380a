import { timingSafeEqual } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure } from '#shared/db/client.ts';
import { itemExists } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { transactWrite } from '#shared/db/transactions.ts';
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
 * Limits as an app or a merchant stores them (cents; money/charge-limits.ts applies them): an absent one falls back (app) or does not apply (merchant).
 */
export interface ChargeLimitSettings {
  per_order_amount?: number | null;
  monthly_amount?: number | null;
}

/** `charge_limits`: what the operators set (the admin CLI; money/charge-limits.ts reads them). */
export const AppEntity = defineEntity<App & { created_at: string; updated_at: string; charge_limits?: ChargeLimitSettings }>()({
  entity: 'App',
  key: keys.app,
});

/** An API key, stored by its SHA-256: the app it belongs to and the digest of the app's client secret. */
export const ApiKey = defineEntity<{
  app_id: number;
  /** Absent on apps created before client secrets existed (rotateClientSecret gives them one). */
  client_secret_hash?: string;
  created_at: string;
  updated_at?: string;
}>()({ entity: 'ApiKey', key: keys.apiKey });
/** The API key's stored record (app id and client secret digest). */
export type ApiKeyRecord = EntityItem<typeof ApiKey>;

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
    AppEntity.at(appId).putNew({ ...app, created_at: now, updated_at: now }),
    ApiKey.at(sha256(apiKey)).putNew({ app_id: appId, client_secret_hash: sha256(clientSecret), created_at: now }),
  ]);
  if (!outcome.committed) throw new Error(`app creation cancelled: ${outcome.reasons.join(',')}`);
  return { app, apiKey, clientSecret };
}

export async function getApp(appId: number): Promise<App | undefined> {
  return AppEntity.at(appId).get({ consistent: false });
}

/** The app an API key belongs to, or undefined. */
export async function appIdForApiKey(apiKey: string): Promise<number | undefined> {
  return (await ApiKey.at(sha256(apiKey)).get({ consistent: false }))?.app_id;
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
        ...ApiKey.at(sha256(apiKey)).update({ set: { client_secret_hash: sha256(clientSecret), updated_at: isoSeconds() } }, itemExists).Update,
        ReturnValues: 'ALL_NEW',
      }),
    );
    appId = Number(ApiKey.from(result.Attributes)?.app_id);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
  await revokeAccountTokens({ subject: 'app', id: appId });
  return { appId, clientSecret };
}
