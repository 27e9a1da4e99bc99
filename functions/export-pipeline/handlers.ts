/**
 * The export job's queue consumer, given its ports: the Lambda entry point (build-export.ts)
 * wires S3, the local runtime (infra/local) its storage, so both run the same code on the same
 * event shapes. A try that fails is handed over again by the queue; the last one settles the
 * export as failed, so the user learns of it instead of waiting on a message in the DLQ.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { EXPORT_JOB_TRIES } from '../../shared/domain/exports.js';
import { failExport, runExport, type ExportJobPorts } from '../../shared/exports/run-export.js';
import { queueHandler } from '../../shared/pipeline/sqs-consumer.js';
import { ExportMessage } from '../../shared/ports/export-queue.js';

export type ExportQueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export function exportQueueHandler(ports: ExportJobPorts): ExportQueueHandler {
  return queueHandler({
    messages: 'export message',
    failure: 'export job failed',
    schema: ExportMessage,
    // One archive at a time per invocation: each is a long, memory-flat stream of its own.
    concurrency: 1,
    async handle(message, record) {
      try {
        await runExport(message.export_id, ports);
      } catch (error) {
        if (Number(record.attributes.ApproximateReceiveCount) < EXPORT_JOB_TRIES) throw error;
        await failExport(message.export_id);
        throw error;
      }
    },
  });
}
