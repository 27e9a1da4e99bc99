import { newExport } from '../../shared/domain/exports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentNewExport } from '../../shared/http/present/exports.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { routes } from '../../shared/http/contract/routes/exports.js';
import { settleExport, startExport } from '../../shared/store/exports.js';
import type { ExportPorts } from './ports.js';
import { sqsExportQueueFromConfig } from '../../shared/ports/aws/sqs-export-queue.js';

/** Records the export with the user's one claim (409 while another runs) and queues its job. */
export const handler = httpHandler(
  routes.createExport,
  async ({ auth, now, event, ports }) => {
    const record = newExport(now, auth.principal.userId, publicBaseUrl(event));
    await startExport(record, now);
    try {
      await ports.exportQueue.enqueue({ export_id: record.id });
    } catch (error) {
      // Not queued, it would never run: settled at once, so the claim does not block the next request.
      await settleExport(record, {
        status: 'failed',
        completed_at: now.toISOString(),
        failure_reason: 'The export could not be started. Ask again.',
      });
      throw error;
    }
    return { export: presentNewExport(record) };
  },
  { ports: (): Pick<ExportPorts, 'exportQueue'> => ({ exportQueue: sqsExportQueueFromConfig() }) },
);
