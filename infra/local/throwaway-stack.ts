/**
 * A stack that leaves nothing behind: DynamoDB Local in memory, the table, and the local server
 * on a free port in a child process (`npm start` pointed at that DynamoDB). The test run, the
 * benchmarks and `npm run demo` start one each, with their own settings.
 */
import { ensureTable, startDynamoDbLocal } from './dynamodb-local.js';
import { startLocalServer, type LocalServer } from './server-process.js';

export interface ThrowawayStackOptions {
  tableName: string;
  /** The server's environment besides DYNAMODB_ENDPOINT and TABLE_NAME (settings of shared/config.ts). */
  env?: Record<string, string>;
  /** `npm start` arguments, e.g. `--bundles <dir>`. */
  serverArgs?: string[];
}

export interface ThrowawayStack {
  dynamodbEndpoint: string;
  tableName: string;
  server: LocalServer;
  stop(): Promise<void>;
}

export async function startThrowawayStack({
  tableName,
  env = {},
  serverArgs = [],
}: ThrowawayStackOptions): Promise<ThrowawayStack> {
  const dynamo = await startDynamoDbLocal({ inMemory: true, dataDir: '' });
  try {
    await ensureTable(dynamo.endpoint, tableName);
    // --in-memory: the media files too stay in the server's memory.
    const server = await startLocalServer({ ...env, DYNAMODB_ENDPOINT: dynamo.endpoint, TABLE_NAME: tableName }, [
      '--in-memory',
      ...serverArgs,
    ]);
    return {
      dynamodbEndpoint: dynamo.endpoint,
      tableName,
      server,
      stop: async () => {
        await server.stop();
        await dynamo.stop();
      },
    };
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
}
