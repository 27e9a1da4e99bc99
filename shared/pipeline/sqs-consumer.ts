/**
 * The one way to consume a queue: each message's body decoded against its schema, the messages
 * handled side by side (a bounded number at once), and every one that fails, malformed ones
 * included, named in the answer (batch-failures.ts): the queue hands it over again, then to its
 * dead-letter queue.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod/mini';
import { logger } from '../logger.js';
import { sqsBatchResponse } from './batch-failures.js';
import { mapLimit } from './concurrency.js';
import { decodeBody } from './decode.js';
import { logMalformedMessage } from './malformed.js';

export interface QueueConsumer<S extends z.ZodMiniType> {
  /** What the logs call one of its messages: 'feed message' logs "malformed feed message". */
  messages: string;
  /** The log message of a message that failed ('feed inbox write failed'). */
  failure: string;
  /** What a body must hold. */
  schema: S;
  handle(message: z.infer<S>, record: SQSRecord): Promise<unknown>;
  /** Messages handled at once (default: the whole batch). */
  concurrency?: number;
}

/** Consumes a batch of messages; returns the ids of those that failed. */
export async function consumeQueue<S extends z.ZodMiniType>(
  records: readonly SQSRecord[],
  consumer: QueueConsumer<S>,
): Promise<string[]> {
  const failed: string[] = [];
  await mapLimit(records, consumer.concurrency ?? records.length, async (record) => {
    const decoded = decodeBody(consumer.schema, record.body);
    if (!decoded.ok) {
      logMalformedMessage(consumer.messages, record.messageId, decoded.reason);
      failed.push(record.messageId);
      return;
    }
    try {
      await consumer.handle(decoded.record, record);
    } catch (error) {
      logger.error(consumer.failure, { messageId: record.messageId, error: error as Error });
      failed.push(record.messageId);
    }
  });
  return failed;
}

/** A queue Lambda of one consumer (its event source reports batch item failures). */
export function queueHandler<S extends z.ZodMiniType>(
  consumer: QueueConsumer<S>,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => sqsBatchResponse(await consumeQueue(event.Records, consumer));
}
