import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimit } from '../pipeline/concurrency.js';
import { retry, type RetryPolicy } from '../pipeline/retry.js';
import { db, tableName } from './client.js';

export interface ItemKey {
  pk: string;
  sk: string;
}

export const keyId = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/** DynamoDB's limits per call. */
const GET_KEYS_PER_CALL = 100;
const WRITES_PER_CALL = 25;

/** Part of a batch call DynamoDB left unprocessed (throttled partitions): worth sending again. */
class Unprocessed extends Error {}

/** Unprocessed items and keys sent again after a jittered, doubling back-off, up to `attempts` calls. */
const UNPROCESSED_RETRY = (settings: BatchWriteSettings): RetryPolicy => ({
  tries: settings.attempts,
  baseDelayMs: settings.backoffMs,
  factor: 2,
  retryable: (error) => error instanceof Unprocessed,
});

/**
 * Items by key in one BatchGetItem per 100 keys, sent side by side (more calls only for
 * UnprocessedKeys, with the back-off and bound of DEFAULT_BATCH_WRITE), as a map from
 * `keyId(key)` to the raw item; missing items are absent.
 */
export async function batchGet(
  itemKeys: readonly ItemKey[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  const table = tableName();
  const unique = [...new Map(itemKeys.map((k) => [keyId(k), { pk: k.pk, sk: k.sk }])).values()];
  const consistent = options.consistent === true;
  // One request's reads are one chunk: read without gathering promises.
  if (unique.length === 0) return found;
  if (unique.length <= GET_KEYS_PER_CALL) await readChunk(table, unique, consistent, found);
  else {
    const chunks: ItemKey[][] = [];
    for (let i = 0; i < unique.length; i += GET_KEYS_PER_CALL) chunks.push(unique.slice(i, i + GET_KEYS_PER_CALL));
    await Promise.all(chunks.map((keys) => readChunk(table, keys, consistent, found)));
  }
  return found;
}

/** One BatchGetItem of up to 100 keys into `found`, its unprocessed keys sent again. */
async function readChunk(
  table: string,
  keys: ItemKey[],
  consistent: boolean,
  found: Map<string, Record<string, unknown>>,
): Promise<void> {
  let request: Record<string, { Keys: ItemKey[]; ConsistentRead?: boolean }> | undefined = {
    [table]: consistent ? { Keys: keys, ConsistentRead: true } : { Keys: keys },
  };
  await retry(async (call) => {
    const result = await db().send(new BatchGetCommand({ RequestItems: request }));
    for (const item of result.Responses?.[table] ?? []) found.set(keyId(item as ItemKey), item);
    request = result.UnprocessedKeys as typeof request;
    const left = request?.[table]?.Keys.length ?? 0;
    if (left > 0)
      throw new Unprocessed(`BatchGetItem left ${left} of ${keys.length} keys unprocessed after ${call} calls`);
  }, GET_RETRY);
}

/** One request of a BatchWriteItem on the table. */
export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: ItemKey } };

/** One BatchWriteItem call on the table: what DynamoDB left unprocessed comes back. */
export type SendBatchWrite = (requests: WriteRequest[]) => Promise<WriteRequest[]>;

export interface BatchWriteSettings {
  /** BatchWriteItem calls (of up to 25 requests) in flight at once. */
  concurrency: number;
  /** Calls per batch of 25 before what is still unprocessed fails the write. */
  attempts: number;
  /** First back-off before a batch's unprocessed items are sent again (doubling, jittered), ms. */
  backoffMs: number;
}

export const DEFAULT_BATCH_WRITE: BatchWriteSettings = { concurrency: 4, attempts: 8, backoffMs: 25 };

/** The reads' retry of unprocessed keys: made once, it is the same for every read. */
const GET_RETRY = UNPROCESSED_RETRY(DEFAULT_BATCH_WRITE);

const sendBatchWrite: SendBatchWrite = async (requests) => {
  const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
  return (result.UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
};

/**
 * Puts and deletes in BatchWriteItem calls of 25, a few at once. DynamoDB may leave part of a
 * call unprocessed (throttled partitions): that part is sent again after a jittered, doubling
 * back-off, up to `attempts` calls per batch; then the write fails, naming how many were left.
 * Not atomic: each request stands alone, so the requests must be safe to repeat (a put of the
 * same item, a delete).
 */
export async function batchWrite(
  requests: readonly WriteRequest[],
  settings: BatchWriteSettings = DEFAULT_BATCH_WRITE,
  send: SendBatchWrite = sendBatchWrite,
): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += WRITES_PER_CALL) batches.push(requests.slice(i, i + WRITES_PER_CALL));
  await mapLimit(batches, settings.concurrency, async (batch) => {
    let pending = batch;
    await retry(async (call) => {
      pending = await send(pending);
      if (pending.length > 0)
        throw new Unprocessed(
          `BatchWriteItem left ${pending.length} of ${batch.length} writes unprocessed after ${call} calls`,
        );
    }, UNPROCESSED_RETRY(settings));
  });
}
