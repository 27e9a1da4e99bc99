import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local.js';
import { startLocalServer } from './local-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    tableName: string;
    baseUrl: string;
  }
}

/** Test-speed webhook retries: attempts 2..10 follow within seconds. */
export const TEST_RETRY_DELAYS = '1,1,1,1,1,1,1,1,1';

export default function setup(project: TestProject) {
  return startTestStack(project);
}

/** DynamoDB Local (in memory) and the local server, started with `serverArgs` (e.g. `--bundles <dir>`). */
export async function startTestStack(project: TestProject, serverArgs: string[] = []) {
  const dynamo = await startDynamoDbLocal({ inMemory: true, dataDir: '' });
  const tableName = 'social-network-test';
  await ensureTable(dynamo.endpoint, tableName);
  const server = await startLocalServer({
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME: tableName,
    WEBHOOK_URL_POLICY: 'allow-local',
    WEBHOOK_RETRY_DELAYS: TEST_RETRY_DELAYS,
    WEBHOOK_TIMEOUT_MS: '2000',
  }, serverArgs);
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  project.provide('tableName', tableName);
  project.provide('baseUrl', server.baseUrl);

  return async () => {
    await server.stop();
    await dynamo.stop();
  };
}
