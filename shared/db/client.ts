import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClientConfig, requireEnv } from '#shared/env.ts';
import { instrumentClient } from '#shared/db/stats.ts';
import { injectFaults } from '#shared/db/faults.ts';

/**
 * One document client per process (module scope, reused across Lambda invocations).
 * DYNAMODB_ENDPOINT points it at DynamoDB Local; unset in AWS.
 */
function createDocumentClient(): DynamoDBDocumentClient {
  const client = new DynamoDBClient(awsClientConfig('DYNAMODB_ENDPOINT'));
  // The SDK's logger middleware builds a redacted copy of every call's input and output for its
  // logger even when that logger discards it (the default): CPU on every call for nothing.
  client.middlewareStack.remove('loggerMiddleware');
  // Bench mode (DYNAMODB_STATS=1), tested inline: the bundling defines it away, so esbuild drops the stats module.
  if (process.env.DYNAMODB_STATS) instrumentClient(client);
  // Reliability tests only (test/faults, docs/reliability.md): DYNAMODB_FAULTS is never set in AWS.
  // Deployed bundles define DYNAMODB_FAULTS as undefined (API_FUNCTION_BUNDLING): this line is dead code
  // there and faults.ts is not in the bundle, so no setting can turn fault injection on in AWS.
  if (process.env.DYNAMODB_FAULTS) injectFaults(client);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

let documentClient: DynamoDBDocumentClient | undefined;
let tableName: string | undefined;

export function db(): DynamoDBDocumentClient {
  documentClient ??= createDocumentClient();
  return documentClient;
}

export function table(): string {
  tableName ??= requireEnv('TABLE_NAME');
  return tableName;
}

/** True when a DynamoDB call failed because its condition (or a transaction's) did not hold. */
export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

/** Reasons of a cancelled transaction, one per item, in request order (`None` where that item was fine). */
export function cancellationReasons(error: unknown): string[] {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] } | null)?.CancellationReasons;
  return reasons?.map((reason) => reason.Code ?? 'None') ?? [];
}
