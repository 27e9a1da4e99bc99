import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentExport } from '../../shared/http/present/exports.js';
import { routes } from '../../shared/http/contract/routes/exports.js';
import { getExport } from '../../shared/store/exports.js';
import type { ExportPorts } from './ports.js';
import { s3ExportStorageFromConfig } from '../../shared/ports/aws/s3-export-storage.js';

/** Another user's export answers as a missing one. */
export const handler = httpHandler(
  routes.getExport,
  async ({ params, auth, now, ports }) => {
    const record = await getExport(params.export_id);
    if (record?.user_id !== auth.principal.userId) throw notFound('Export');
    return { export: await presentExport(record, ports.exportStorage, now) };
  },
  { ports: (): Pick<ExportPorts, 'exportStorage'> => ({ exportStorage: s3ExportStorageFromConfig() }) },
);
