/**
 * The one way to consume the table stream: each record selected and decoded by its consumer, the
 * records split into lanes (records of one lane in stream order, lanes side by side, a bounded
 * number at once), each step tried a few times in process, and what still fails answered by the
 * one batch-item-failure rule (batch-failures.ts). A malformed record is logged and failed like
 * any other, so after the event source's retries it lands in the failure destination, not dropped
 * unseen.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { logger } from '../logger.js';
import type { StreamHandler } from '../ports/shard-stream-event.js';
import { streamBatchResponse } from './batch-failures.js';
import { mapLimit } from './concurrency.js';
import type { Decoded } from './decode.js';
import { logMalformedRecord } from './malformed.js';
import { retry, type RetryPolicy } from './retry.js';

/**
 * In-process tries of one stream step before it is reported failed: about 0.4 s, then 1.6 s
 * (jittered), short beside the event source's own retries, long enough for a throttled write.
 */
export const STREAM_STEP_RETRY: RetryPolicy = { tries: 3, baseDelayMs: 400, factor: 4 };

interface ConsumerBase<W> {
  /** What the logs call one of its records: 'outbox event' logs "malformed outbox event on the stream". */
  records: string;
  /** The log message of a step that still failed after its tries ('webhook fan-out failed'). */
  failure: string;
  /** The work a record asks for: undefined when it asks for none (not this consumer's), or why it is malformed. */
  select(record: DynamoDBRecord): Decoded<W> | undefined;
  /** The lane of a record's work (default: a lane of its own). */
  laneOf?(work: W): string;
  /** Lanes worked on at once. */
  concurrency: number;
  /** In-process tries of one step (default: one try; the event source retries the batch). */
  retry?: RetryPolicy;
  /** Fields naming a step's (first) work in the failure log, beside its sequence number. */
  describe?(work: W): Record<string, unknown>;
}

/**
 * A consumer handles its lanes one record at a time (`each`: a failure ends the lane, as the
 * records after it come again anyway) or a whole lane at once (`fold`: a failure fails the lane).
 */
export type StreamConsumer<W> = ConsumerBase<W> &
  ({ each(work: W): Promise<unknown>; fold?: never } | { fold(works: readonly W[]): Promise<unknown>; each?: never });

interface Selected<W> {
  sequenceNumber: string;
  work: W;
}

/** Consumes a batch of records; returns the sequence numbers of those that failed. */
export async function consumeStream<W>(
  records: readonly DynamoDBRecord[],
  consumer: StreamConsumer<W>,
): Promise<string[]> {
  const failed: string[] = [];
  const lanes = new Map<string, Selected<W>[]>();
  records.forEach((record, index) => {
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
    const selected = consumer.select(record);
    if (!selected) return;
    if (!selected.ok) {
      logMalformedRecord(consumer.records, sequenceNumber, selected.reason);
      failed.push(sequenceNumber);
      return;
    }
    const lane = consumer.laneOf?.(selected.record) ?? `\u0000${index}`;
    lanes.set(lane, [...(lanes.get(lane) ?? []), { sequenceNumber, work: selected.record }]);
  });

  /** One step of a lane: true when it went through, else logged and its records failed. */
  const step = async (covered: readonly Selected<W>[], run: () => Promise<unknown>): Promise<boolean> => {
    try {
      await (consumer.retry ? retry(run, consumer.retry) : run());
      return true;
    } catch (error) {
      logger.error(consumer.failure, {
        sequence_number: covered[0]!.sequenceNumber,
        ...consumer.describe?.(covered[0]!.work),
        error: error as Error,
      });
      failed.push(...covered.map((s) => s.sequenceNumber));
      return false;
    }
  };
  await mapLimit([...lanes.values()], consumer.concurrency, async (lane) => {
    if (consumer.fold) {
      const fold = consumer.fold.bind(consumer);
      await step(lane, () => fold(lane.map((s) => s.work)));
      return;
    }
    const each = consumer.each.bind(consumer);
    for (const selected of lane) if (!(await step([selected], () => each(selected.work)))) return;
  });
  return failed;
}

export interface StreamHandlerOptions {
  /**
   * As the event source is set: true, failures are reported (the shard resumes at the earliest);
   * false, the event source takes no partial answer, so a failure is thrown and the whole batch
   * comes again (the consumer must be idempotent on all of it).
   */
  reportBatchItemFailures: boolean;
}

/** A stream Lambda of one consumer. */
export function streamHandler<W>(consumer: StreamConsumer<W>, options: StreamHandlerOptions): StreamHandler {
  return async (event) => {
    const failed = await consumeStream(event.Records, consumer);
    if (failed.length > 0 && !options.reportBatchItemFailures)
      throw new Error(`${consumer.failure}: ${failed.length} records of the batch (logged above)`);
    return streamBatchResponse(event, failed);
  };
}
