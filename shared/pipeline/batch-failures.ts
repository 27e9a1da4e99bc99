/**
 * The one batch-item-failure rule (ReportBatchItemFailures) for both event sources. A stream
 * shard is read in order, so only where it resumes matters: the earliest failed record (the
 * records after it come again, and the consumers are idempotent on them). A queue's messages stand
 * alone: each failed one is named and only those come again.
 */
import type { SQSBatchResponse } from 'aws-lambda';
import type { ShardStreamEvent, ShardStreamResponse } from '../ports/shard-stream-event.js';

/** Stream sequence numbers are decimal strings of any length: compared as numbers. */
export const bySequence = (a: string, b: string): -1 | 0 | 1 => {
  const x = BigInt(a || '0');
  const y = BigInt(b || '0');
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The earliest of these sequence numbers, if any. */
export function earliestSequenceNumber(sequenceNumbers: readonly string[]): string | undefined {
  return [...sequenceNumbers].sort(bySequence)[0];
}

/** A stream batch's answer: resume at the earliest failed record, and an empty state for a tumbling window. */
export function streamBatchResponse(
  event: ShardStreamEvent,
  failedSequenceNumbers: readonly string[],
): ShardStreamResponse {
  const first = earliestSequenceNumber(failedSequenceNumbers);
  return {
    batchItemFailures: first === undefined ? [] : [{ itemIdentifier: first }],
    ...(event.window ? { state: {} } : {}),
  };
}

/** A queue batch's answer: every failed message by its id. */
export function sqsBatchResponse(failedMessageIds: readonly string[]): SQSBatchResponse {
  return { batchItemFailures: failedMessageIds.map((itemIdentifier) => ({ itemIdentifier })) };
}
