/** What the export routes use outside the table: the queue the job runs from, the storage its archive is read from. */
import { s3ExportStorageFromConfig } from '../../shared/ports/aws/s3-export-storage.js';
import { sqsExportQueueFromConfig } from '../../shared/ports/aws/sqs-export-queue.js';
import type { ExportQueue } from '../../shared/ports/export-queue.js';
import type { ExportStorage } from '../../shared/ports/export-storage.js';

export interface ExportPorts {
  exportQueue: ExportQueue;
  exportStorage: ExportStorage;
}

export const exportPortsFromConfig = (): ExportPorts => ({
  exportQueue: sqsExportQueueFromConfig(),
  exportStorage: s3ExportStorageFromConfig(),
});
