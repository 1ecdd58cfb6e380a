import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';

/**
 * Integer ids, as the contract's resources carry them: one atomic counter per entity kind.
 * The counter only hands out numbers; the entity write that uses one is what is guarded.
 */
export async function nextId(entity: string): Promise<number> {
  const result = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.counter(entity),
      UpdateExpression: 'ADD #value :one SET entity = :entity',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1, ':entity': 'Counter' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}

/** LevelUp-style 32 hex character uuid (clients treat it as an opaque string); needs no round trip. */
export function newUuid(): string {
  return randomUUID().replace(/-/g, '');
}
