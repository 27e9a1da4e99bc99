/**
 * The local runtime's stream poller on DynamoDB Local: each consumer reads the stream on its own,
 * as each deployed consumer has its own event source mapping. A consumer that keeps failing a
 * record holds only itself, and passes over the record after its retries; a restart resumes each
 * consumer after its own checkpoint. On a table of its own.
 */
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local.js';
import { StreamPoller, type StreamConsumer, type StreamHandler } from '../../infra/local/stream-poller.js';
import { db } from '../../shared/store/client.js';

const endpoint = inject('dynamodbEndpoint');
const table = `stream-poller-${randomBytes(4).toString('hex')}`;
process.env.TABLE_NAME = table;

beforeAll(async () => {
  await ensureTable(endpoint, table);
});
afterAll(async () => {
  const client = localClient(endpoint);
  await client.send(new DeleteTableCommand({ TableName: table }));
  client.destroy();
});

/** A consumer handed each read's records at once (no batching window), as the search index is. */
const atOnce = (handler: StreamHandler): StreamConsumer => ({ handler, batchSize: 100, batchingWindowSeconds: 0 });

const pkOf = (record: DynamoDBRecord) => record.dynamodb?.Keys?.pk?.S ?? '';
const write = (pk: string) => db().send(new PutCommand({ TableName: table, Item: { pk, sk: 'ITEM' } }));

/**
 * A consumer that notes the partition keys it handled (up to the first it fails, as
 * ReportBatchItemFailures means) and how often it was handed each.
 */
function recording(fail: (pk: string) => boolean = () => false) {
  const seen: string[] = [];
  const handed = new Map<string, number>();
  const handler: StreamHandler = (event) => {
    for (const record of event.Records) handed.set(pkOf(record), (handed.get(pkOf(record)) ?? 0) + 1);
    const failedAt = event.Records.findIndex((record) => fail(pkOf(record)));
    const handled = failedAt < 0 ? event.Records : event.Records.slice(0, failedAt);
    seen.push(...handled.map(pkOf));
    return Promise.resolve({
      batchItemFailures: failedAt < 0 ? [] : [{ itemIdentifier: event.Records[failedAt]!.dynamodb!.SequenceNumber! }],
    });
  };
  return { seen, handed, handler };
}

/** A consumer that throws on a batch holding a record it cannot handle, as a Lambda that fails whole. */
function throwing(fail: (pk: string) => boolean) {
  const consumer = recording();
  const handler: StreamHandler = async (event) => {
    if (event.Records.some((record) => fail(pkOf(record)))) {
      for (const record of event.Records)
        consumer.handed.set(pkOf(record), (consumer.handed.get(pkOf(record)) ?? 0) + 1);
      throw new Error('cannot handle this batch');
    }
    return consumer.handler(event);
  };
  return { ...consumer, handler };
}

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the local stream poller', () => {
  const run = randomBytes(3).toString('hex');
  const pk = (name: string) => `TEST#${run}#${name}`;
  const healthy = recording();
  const stuck = recording((key) => key === pk('poison'));
  const thrower = throwing((key) => key === pk('poison'));
  let poller: StreamPoller;

  it('hands every record to every consumer, never its own checkpoints', async () => {
    poller = new StreamPoller(
      endpoint,
      { healthy: atOnce(healthy.handler), stuck: atOnce(stuck.handler), thrower: atOnce(thrower.handler) },
      20,
    );
    await poller.start();
    await write(pk('first'));
    await until('both consumers saw the first record', () =>
      [healthy, stuck].every((consumer) => consumer.seen.includes(pk('first'))),
    );
    expect([...healthy.seen, ...stuck.seen].every((key) => key.startsWith('TEST#'))).toBe(true);
  });

  it('lets a consumer that keeps failing a record hold only itself, then pass over it', async () => {
    await write(pk('poison'));
    await write(pk('after'));
    await until('the healthy consumer read past the poison', () => healthy.seen.includes(pk('after')));
    // The healthy consumer read on while the other still tried the poison (one try, three retries).
    expect(stuck.handed.get(pk('poison'))).toBeLessThan(4);

    await until('the stuck consumer passed over the poison', () => stuck.seen.includes(pk('after')));
    expect(stuck.handed.get(pk('poison'))).toBe(4);
    expect(stuck.seen).not.toContain(pk('poison'));
    expect(healthy.handed.get(pk('poison'))).toBe(1);

    // A thrown batch fails whole, from its first record (the poison here), as the event source
    // without bisection retries it.
    await until('the throwing consumer passed over the poison', () => thrower.seen.includes(pk('after')));
    expect(thrower.handed.get(pk('poison'))).toBe(4);
    expect(thrower.seen).not.toContain(pk('poison'));
  });

  it('resumes each consumer after its own checkpoint when started again', async () => {
    await poller.stop();
    await write(pk('while-down'));
    const healthyAgain = recording();
    const stuckAgain = recording();
    poller = new StreamPoller(
      endpoint,
      { healthy: atOnce(healthyAgain.handler), stuck: atOnce(stuckAgain.handler) },
      20,
    );
    await poller.start();
    await until('both consumers read what was written while down', () =>
      [healthyAgain, stuckAgain].every((consumer) => consumer.seen.includes(pk('while-down'))),
    );
    await poller.stop();
    for (const consumer of [healthyAgain, stuckAgain]) {
      expect(consumer.seen.filter((key) => key.startsWith(`TEST#${run}`))).toEqual([pk('while-down')]);
    }
  });
});
