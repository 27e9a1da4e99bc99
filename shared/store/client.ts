import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { InitializeMiddleware } from '@smithy/types';
import { DynamoDBDocumentClient, type ServiceInputTypes, type ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { auditStampMiddleware } from './audit-stamp.js';

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
    const documents = documentClient;
    // The stamp reads and rewrites every write's input before it is marshalled (see audit-stamp.ts),
    // whatever its command: typed there as plain records, here as the client's union of inputs.
    documents.middlewareStack.add(
      auditStampMiddleware((command) => documents.send(command)) as unknown as InitializeMiddleware<
        ServiceInputTypes,
        ServiceOutputTypes
      >,
      { step: 'initialize', name: 'auditStamp' },
    );
  }
  return documentClient;
}

export const tableName = (): string => config.tableName;
