import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';

let documentClient: DynamoDBDocumentClient | undefined;

/** One client per process (Lambda container or local server), created on first use. */
export function db(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = config.dynamodbEndpoint;
    const client = new DynamoDBClient({
      region: config.region,
      ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    });
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return documentClient;
}

export const tableName = (): string => config.tableName;
