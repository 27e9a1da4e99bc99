/**
 * The erasure's queue consumer around shared/erasure, given its ports: the Lambda entry point
 * wires SQS, S3 and OpenSearch, the local runtime its in-process queue, media files and index.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ErasureMessage } from '../../shared/domain/erasure.js';
import { runErasureStep, type ErasurePorts } from '../../shared/erasure/run-step.js';
import { queueHandler } from '../../shared/pipeline/sqs-consumer.js';

export type ErasureQueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** Each message a step; a failed one is reported (the queue hands it over again, then to its dead-letter queue). */
export function erasureQueueHandler(ports: () => ErasurePorts): ErasureQueueHandler {
  return queueHandler({
    messages: 'erasure message',
    failure: 'erasure step failed',
    schema: ErasureMessage,
    handle: (message) => runErasureStep(message, ports()),
  });
}
