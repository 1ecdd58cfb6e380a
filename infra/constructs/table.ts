import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { EVENT_STREAM_VIEW, GLOBAL_INDEXES, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '#shared/db/table-definition.ts';

/**
 * The API's one DynamoDB table. Keys, indexes and the TTL attribute come from
 * shared/db/table-definition.ts, which the local stack also reads, so both build the same table.
 *
 * It holds every user, card, balance and order, so it is protected against loss three ways:
 * point-in-time recovery, deletion protection (the table cannot be deleted by any API call until
 * it is switched off) and RemovalPolicy.RETAIN (deleting the stack orphans the table instead).
 */
export class LoyaltyTable extends Construct {
  public readonly table: Table;

  public constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: SORT_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Carries each inserted event to the webhook delivery path (infra/constructs/webhook-delivery.ts).
      stream: StreamViewType[EVENT_STREAM_VIEW],
    });

    for (const index of GLOBAL_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
  }
}
