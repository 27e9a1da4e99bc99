/**
 * What the export routes use outside the table: the queue the job runs from (create), the storage
 * that signs an archive's download (read). Types only: each route builds just its own adapter, so
 * its bundle carries one AWS client (test/bundle/lambda-bundle-contents.test.ts).
 */
import type { ExportQueue } from '../../shared/ports/export-queue.js';
import type { ExportStorage } from '../../shared/ports/export-storage.js';

export interface ExportPorts {
  exportQueue: ExportQueue;
  exportStorage: ExportStorage;
}
