import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TTL_ATTRIBUTE } from '#shared/db/table-definition.ts';

/**
 * Creates the table from the same definition the CDK stack deploys (or `definition`, a variant of it: the bench's
 * cold-twin scratch table has no stream), unless it exists. Returns true when created.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  definition: CreateTableCommandInput = createTableInput(tableName),
): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return false;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  await client.send(new CreateTableCommand({ ...definition, TableName: tableName }));
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }));
  return true;
}
