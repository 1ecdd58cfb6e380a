import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The one table's key schema, read by the CDK stack and by the local stack's table creation,
 * so both build the same table. See docs/data-model.md for what each key holds.
 */
export const PARTITION_KEY = 'pk';
export const SORT_KEY = 'sk';
/** Epoch seconds; DynamoDB TTL deletes the item some time after it (reads check it too). */
export const TTL_ATTRIBUTE = 'ttl';

/**
 * The table's stream carries every new image to the event delivery path (docs/events.md): an event item is
 * only ever inserted, and its new image is all the delivery needs.
 */
export const EVENT_STREAM_VIEW = 'NEW_IMAGE';

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export const GLOBAL_INDEXES: readonly IndexDefinition[] = [
  { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
];

export function createTableInput(tableName: string): CreateTableCommandInput {
  const attributes = [PARTITION_KEY, SORT_KEY, ...GLOBAL_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: EVENT_STREAM_VIEW },
    AttributeDefinitions: attributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
      { AttributeName: SORT_KEY, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}
