/**
 * Where a running `npm start` announces the DynamoDB Local it started, under DATA_DIR, so that
 * operator commands (`npm run moderator`) write the same table while it runs.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { localClient } from './dynamodb-local.js';

const FILE = 'dynamodb-endpoint';

export function announceLocalEndpoint(dataDir: string, endpoint: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, FILE);
  writeFileSync(path, endpoint);
  return () => rmSync(path, { force: true });
}

/** The announced endpoint, if one is announced and answers. */
export async function runningLocalEndpoint(dataDir: string): Promise<string | undefined> {
  let endpoint: string;
  try {
    endpoint = readFileSync(join(dataDir, FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
  const probe = localClient(endpoint, 1);
  try {
    await probe.send(new ListTablesCommand({ Limit: 1 }));
    return endpoint;
  } catch {
    return undefined;
  } finally {
    probe.destroy();
  }
}
