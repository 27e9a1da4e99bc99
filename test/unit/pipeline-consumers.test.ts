/** The stream and queue consumers: lanes, folds, tries, malformed input logged, and the batch answer. */
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { logger } from '../../shared/logger.js';
import { decodeImage } from '../../shared/pipeline/decode.js';
import { queueHandler } from '../../shared/pipeline/sqs-consumer.js';
import { consumeStream, streamHandler, type StreamConsumer } from '../../shared/pipeline/stream-consumer.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const Item = z.object({ lane: z.string(), n: z.number() });
type Item = z.infer<typeof Item>;

const record = (sequence: string, lane: string | undefined, n: number): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: {
    SequenceNumber: sequence,
    NewImage: { ...(lane === undefined ? {} : { lane: { S: lane } }), n: { N: String(n) } },
  },
});

const select = (r: DynamoDBRecord) =>
  r.dynamodb?.NewImage?.n?.N === '0' ? undefined : decodeImage(Item, r.dynamodb?.NewImage);
const noPause = { tries: 3, baseDelayMs: 0, jitter: 0 };

/** The error logs written while `run` runs, as [message, fields]. */
async function errorsOf<T>(run: () => Promise<T>): Promise<{ result: T; errors: [string, Record<string, unknown>][] }> {
  const errors: [string, Record<string, unknown>][] = [];
  vi.spyOn(logger, 'error').mockImplementation((...args: unknown[]) => {
    errors.push([args[0] as string, args[1] as Record<string, unknown>]);
  });
  return { result: await run(), errors };
}

describe('consumeStream, one record at a time', () => {
  it('keeps each lane in stream order, ends a lane at its first failure and reports its records', async () => {
    const handled: number[] = [];
    const consumer: StreamConsumer<Item> = {
      records: 'test item',
      failure: 'test work failed',
      select,
      laneOf: (item) => item.lane,
      concurrency: 2,
      each: async (item) => {
        if (item.n === 3) throw new Error('boom');
        handled.push(item.n);
      },
      describe: (item) => ({ lane: item.lane }),
    };
    const { result, errors } = await errorsOf(() =>
      consumeStream(
        [record('10', 'a', 1), record('11', 'b', 2), record('12', 'a', 3), record('13', 'a', 4), record('14', 'b', 5)],
        consumer,
      ),
    );
    expect(result).toEqual(['12']);
    // Lane a stopped at 3 (4 comes again with it); lane b went on.
    expect(handled.sort()).toEqual([1, 2, 5]);
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toBe('test work failed');
    expect(errors[0]![1]).toMatchObject({ sequence_number: '12', lane: 'a' });
  });

  it('tries a failing step again per its policy before reporting it', async () => {
    let tries = 0;
    const consumer: StreamConsumer<Item> = {
      records: 'test item',
      failure: 'test work failed',
      select,
      concurrency: 4,
      retry: noPause,
      each: async (item) => {
        if (item.n === 7 && ++tries < 3) throw new Error('blip');
      },
    };
    expect(await consumeStream([record('1', 'a', 7)], consumer)).toEqual([]);
    expect(tries).toBe(3);
  });

  it('logs a malformed record the same way for every consumer, fails it, and skips records it does not select', async () => {
    const handled: number[] = [];
    const consumer: StreamConsumer<Item> = {
      records: 'test item',
      failure: 'test work failed',
      select,
      concurrency: 4,
      each: async (item) => void handled.push(item.n),
    };
    const { result, errors } = await errorsOf(() =>
      consumeStream(
        [record('5', 'a', 1), record('6', undefined, 2), record('7', 'a', 0), record('8', 'b', 3)],
        consumer,
      ),
    );
    expect(result).toEqual(['6']);
    expect(handled.sort()).toEqual([1, 3]);
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toBe('malformed test item on the stream');
    expect(errors[0]![1]).toMatchObject({ sequence_number: '6' });
    expect(String(errors[0]![1].reason)).toContain('lane');
  });
});

describe('consumeStream, a lane at once (a fold)', () => {
  it('hands each lane its works in stream order and fails all of a failed lane', async () => {
    const folded: number[][] = [];
    const consumer: StreamConsumer<Item> = {
      records: 'test item',
      failure: 'test fold failed',
      select,
      laneOf: (item) => item.lane,
      concurrency: 1,
      fold: async (items) => {
        if (items[0]!.lane === 'b') throw new Error('fold refused');
        folded.push(items.map((i) => i.n));
      },
    };
    const { result } = await errorsOf(() =>
      consumeStream([record('1', 'a', 1), record('2', 'b', 2), record('3', 'a', 3), record('4', 'b', 4)], consumer),
    );
    expect(folded).toEqual([[1, 3]]);
    expect(result.sort()).toEqual(['2', '4']);
  });
});

describe('streamHandler', () => {
  const failing: StreamConsumer<Item> = {
    records: 'test item',
    failure: 'test work failed',
    select,
    concurrency: 4,
    each: async (item) => {
      if (item.n > 1) throw new Error('boom');
    },
  };
  const batch = { Records: [record('100', 'a', 1), record('300', 'a', 3), record('200', 'a', 2)] };

  it('reports the earliest failed record when its event source takes batch item failures', async () => {
    const { result } = await errorsOf(() => streamHandler(failing, { reportBatchItemFailures: true })(batch));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
  });

  it('throws instead when its event source takes no partial answer (the whole batch comes again)', async () => {
    await expect(errorsOf(() => streamHandler(failing, { reportBatchItemFailures: false })(batch))).rejects.toThrow(
      'test work failed: 2 records of the batch',
    );
    const { result } = await errorsOf(() =>
      streamHandler(failing, { reportBatchItemFailures: false })({ Records: [record('1', 'a', 1)] }),
    );
    expect(result).toEqual({ batchItemFailures: [] });
  });
});

describe('queueHandler', () => {
  const message = (messageId: string, body: string) => ({ messageId, body }) as SQSRecord;

  it('names every failed message, malformed ones logged as such, and handles the rest', async () => {
    const handled: string[] = [];
    const handler = queueHandler({
      messages: 'test message',
      failure: 'test message failed',
      schema: z.object({ id: z.string() }),
      concurrency: 2,
      handle: async (m) => {
        if (m.id === 'bad') throw new Error('refused');
        handled.push(m.id);
      },
    });
    const { result, errors } = await errorsOf(() =>
      handler({
        Records: [
          message('m1', '{"id":"one"}'),
          message('m2', 'not json'),
          message('m3', '{"id":"bad"}'),
          message('m4', '{"id":4}'),
          message('m5', '{"id":"five"}'),
        ],
      }),
    );
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m2', 'm3', 'm4']);
    expect(handled.sort()).toEqual(['five', 'one']);
    const malformed = errors.filter(([m]) => m === 'malformed test message');
    expect(malformed.map(([, f]) => f.messageId).sort()).toEqual(['m2', 'm4']);
    expect(errors.filter(([m]) => m === 'test message failed').map(([, f]) => f.messageId)).toEqual(['m3']);
  });
});
