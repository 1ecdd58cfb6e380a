/**
 * The baseline: the smallest useful handler, one GetItem through the same DynamoDB client the API
 * functions use. Cold starts: bundled with the same settings, handlers' init times are shown as a
 * ratio to this one. Overhead ratios: the bench's gateway (bench/harness/server.ts) also serves it at
 * BASELINE_PATH, outside the route table and never deployed; its p50 measured next to each endpoint
 * run prices the local HTTP hop plus one GetItem (bench/harness/run.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';

/** Served by the bench's gateway only. */
export const BASELINE_PATH = '/bench/baseline';

export const handler = async (): Promise<APIGatewayProxyStructuredResultV2> => {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.benchBaseline() }));
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ found: result.Item !== undefined }) };
};
