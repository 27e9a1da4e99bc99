import { httpHandler } from '../../shared/http/handler.js';
import { presentExport } from '../../shared/http/present/exports.js';
import { routes } from '../../shared/http/contract/routes/exports.js';
import { listExports } from '../../shared/store/exports.js';
import type { ExportPorts } from './ports.js';
import { s3ExportStorageFromConfig } from '../../shared/ports/aws/s3-export-storage.js';

export const handler = httpHandler(
  routes.listExports,
  async ({ query, auth, now, ports }) => {
    const page = await listExports(auth.principal.userId, query);
    return {
      items: await Promise.all(page.items.map((record) => presentExport(record, ports.exportStorage, now))),
      next_cursor: page.next_cursor,
    };
  },
  { ports: (): Pick<ExportPorts, 'exportStorage'> => ({ exportStorage: s3ExportStorageFromConfig() }) },
);
