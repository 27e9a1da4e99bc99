/**
 * The local stand-in for an SQS event source mapping, as both local queues (deliveries, feed) use
 * it: messages shaped as SQS hands them to a function, and one invocation of the handler with a
 * batch, read as the mapping reads it with ReportBatchItemFailures: the messages it names failed,
 * and all of them when it throws.
 */
import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** A message as the SQS event source hands it to a function, received for the first time. */
export function sqsRecord(body: string, queueName: string): SQSRecord {
  const now = String(Date.now());
  return {
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: now,
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: now,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${queueName}`,
    awsRegion: 'local',
  };
}

/** The message received once more (the visibility timeout passed): its receive count moves on. */
export const receivedAgain = (record: SQSRecord): SQSRecord => ({
  ...record,
  attributes: {
    ...record.attributes,
    ApproximateReceiveCount: String(Number(record.attributes.ApproximateReceiveCount) + 1),
  },
});

/** Invokes the handler with one batch; returns the records that failed (to be handed over again). */
export async function invokeWithBatch(
  handler: SqsHandler,
  batch: SQSRecord[],
  queueName: string,
): Promise<SQSRecord[]> {
  let failed: Set<string>;
  try {
    const response = await handler({ Records: batch });
    failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  } catch (error) {
    console.error(`local ${queueName} queue: handler failed`, error);
    failed = new Set(batch.map((r) => r.messageId));
  }
  return batch.filter((record) => failed.has(record.messageId));
}
