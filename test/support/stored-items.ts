/** Direct writes to stored items, for what a test cannot wait for (an expiry reached, a code aged). */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import type { Key } from '#shared/db/keys.ts';

/** Sets `attributes` on the item at `key`, as if time had passed (attribute names are escaped: `ttl` is reserved). */
export async function setStoredAttributes(key: Key, attributes: Record<string, unknown>): Promise<void> {
  const names = Object.keys(attributes);
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: key,
      UpdateExpression: `SET ${names.map((_, index) => `#name${index} = :value${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#name${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:value${index}`, attributes[name]])),
    }),
  );
}
