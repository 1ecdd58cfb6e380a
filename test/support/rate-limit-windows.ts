import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';

/** Ends a rate-limit window (windowKey of shared/domain/rate-limits.ts) now, as if its 15 minutes had passed. */
export async function endWindow(key: { pk: string; sk: string }) {
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: key,
      UpdateExpression: 'SET ends_at = :now',
      ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000) },
    }),
  );
}
