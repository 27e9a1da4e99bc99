/**
 * ExportQueue port: carries an export from the route that asks for it to the job that writes its
 * archive. SQS in AWS (shared/ports/aws/sqs-export-queue.ts), the local runtime's in-process
 * queue locally (infra/local/local-export-queue.ts).
 */
import * as z from 'zod/mini';

export const ExportMessage = z.object({ export_id: z.string() });
export type ExportMessage = z.infer<typeof ExportMessage>;

/** The body on the wire (SQS). */
export const exportMessageBody = (message: ExportMessage): string => JSON.stringify(message);

export interface ExportQueue {
  /** Resolves once the message is on the queue (the job runs later). */
  enqueue(message: ExportMessage): Promise<void>;
}
