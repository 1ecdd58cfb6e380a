import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { putNew, transactWrite } from '#shared/db/transactions.ts';
import { randomSecret, sha256 } from '#shared/auth/secrets.ts';
import { isoSeconds } from '#shared/time.ts';

export interface App {
  app_id: number;
  name: string;
  /** A global app lists every merchant's locations and sees a user's orders at any merchant. */
  global: boolean;
  merchant_ids: number[];
}

/** Creates an app; its API key is returned once and stored only as a digest. */
export async function createApp(input: { name: string; global: boolean; merchantIds?: number[]; apiKey?: string }): Promise<{ app: App; apiKey: string }> {
  const appId = await nextId('app');
  const apiKey = input.apiKey ?? randomSecret(20);
  const now = isoSeconds();
  const app: App = { app_id: appId, name: input.name, global: input.global, merchant_ids: input.merchantIds ?? [] };
  const outcome = await transactWrite(() => [
    putNew({ ...keys.app(appId), entity: 'App', ...app, created_at: now, updated_at: now }),
    putNew({ ...keys.apiKey(sha256(apiKey)), entity: 'ApiKey', app_id: appId, created_at: now }),
  ]);
  if (!outcome.committed) throw new Error(`app creation cancelled: ${outcome.reasons.join(',')}`);
  return { app, apiKey };
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
