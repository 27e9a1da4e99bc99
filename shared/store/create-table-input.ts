import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { TABLE } from './table.js';

/** CreateTable input for the local runtime and tests, from the same layout the CDK stack uses. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const attributes = [TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamView },
  };
}
