/**
 * The local stream poller batches each consumer as its event source mapping does: records are
 * gathered for the consumer's batching window unless its batch fills first, and no batch is larger
 * than its batch size. On a table of its own (a fresh stream: the poller starts at its end).
 */
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local.js';
import { StreamPoller, type StreamHandler } from '../../infra/local/stream-poller.js';
import { batchWrite } from '../../shared/store/batch.js';

const endpoint = inject('dynamodbEndpoint');
const table = `stream-batching-${randomBytes(4).toString('hex')}`;
process.env.TABLE_NAME = table;

/** The partition keys of each batch a consumer was handed, in order. */
function batches() {
  const handed: string[][] = [];
  const handler: StreamHandler = (event) => {
    handed.push(event.Records.map((record) => record.dynamodb?.Keys?.pk?.S ?? ''));
    return Promise.resolve({ batchItemFailures: [] });
  };
  return { handed, handler };
}

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const atOnce = batches();
const windowed = batches();
const small = batches();
let poller: StreamPoller;

beforeAll(async () => {
  await ensureTable(endpoint, table);
  poller = new StreamPoller(
    endpoint,
    {
      atOnce: { handler: atOnce.handler, batchSize: 100, batchingWindowSeconds: 0 },
      windowed: { handler: windowed.handler, batchSize: 100, batchingWindowSeconds: 1 },
      small: { handler: small.handler, batchSize: 2, batchingWindowSeconds: 1 },
    },
    20,
  );
  await poller.start();
});
afterAll(async () => {
  await poller.stop();
  const client = localClient(endpoint);
  await client.send(new DeleteTableCommand({ TableName: table }));
  client.destroy();
});

describe('the local stream poller, batching as the event sources', () => {
  const keys = Array.from({ length: 5 }, (_, i) => `TEST#${i}`);
  const write = (pks: string[]) => batchWrite(pks.map((pk) => ({ PutRequest: { Item: { pk, sk: 'ITEM' } } })));

  it("gathers a consumer's records for its batching window and hands them over in one batch", async () => {
    // Two writes, the second once a consumer without a window has had the first: two reads apart,
    // well inside a second.
    await write(keys.slice(0, 2));
    await until('the consumer without a window got the first two', () => atOnce.handed.flat().length === 2);
    await write(keys.slice(2));
    await until('the windowed consumer got all five', () => windowed.handed.flat().length === keys.length);
    expect(windowed.handed).toEqual([keys]);
    await until('the consumer without a window got all five', () => atOnce.handed.flat().length === keys.length);
    expect(atOnce.handed.length).toBeGreaterThan(1);
  });

  it('never hands a consumer more records than its batch size, and the rest after', async () => {
    await until('the small consumer got all five', () => small.handed.flat().length === keys.length);
    expect(small.handed).toEqual([keys.slice(0, 2), keys.slice(2, 4), keys.slice(4)]);
  });
});
