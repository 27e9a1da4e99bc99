import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { TABLE } from '../shared/store/table.js';

export interface DataTableProps {
  /** Refuses DeleteTable (console, API or a stack update that would replace the table). */
  deletionProtection: boolean;
}

/**
 * The service's one DynamoDB table, built from the same layout (shared/store/table.ts) that the
 * local runtime creates in DynamoDB Local, so the two cannot drift apart.
 */
export function createDataTable(scope: Construct, id: string, props: DataTableProps): Table {
  const string = (name: string) => ({ name, type: AttributeType.STRING });
  const table = new Table(scope, id, {
    partitionKey: string(TABLE.partitionKey),
    sortKey: string(TABLE.sortKey),
    // No provisioned capacity to tune or to be throttled by when traffic spikes.
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: props.deletionProtection,
    timeToLiveAttribute: TABLE.ttlAttribute,
    stream: StreamViewType[TABLE.streamView],
    // User data outlives the stack: deleting the stack orphans the table instead of dropping it.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of TABLE.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: string(index.partitionKey),
      sortKey: string(index.sortKey),
      projectionType: ProjectionType.ALL,
    });
  }
  return table;
}
