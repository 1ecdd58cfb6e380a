/**
 * The cold-start baseline: the smallest useful handler, one GetItem through the same DynamoDB
 * client the API functions use, bundled with the same settings. Handlers' init times are shown as
 * a ratio to this one.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';

export const handler = async (): Promise<APIGatewayProxyStructuredResultV2> => {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.benchBaseline() }));
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ found: result.Item !== undefined }) };
};
