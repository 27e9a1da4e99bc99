/**
 * Data exports in the local runtime, in-process: the local storage (local-export-storage.ts), the
 * in-process queue feeding the same job as the export Lambda, and `GET /local/exports/<key>`, which
 * downloads an archive while its download is open (7 days from when it was written), as the
 * presigned GET does in AWS. Local only: the route table does not have it, so it is never deployed.
 * At start it queues again the exports a stopped server left pending (its queue is in memory): a
 * job cut off midway writes its archive again from the start, to the same key, so one archive stays.
 */
import { createReadStream, mkdtempSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EXPORT_DOWNLOAD_SECONDS } from '../../shared/domain/exports.js';
import { fetchMedia } from '../../shared/exports/run-export.js';
import { exportQueueHandler } from '../../functions/export-pipeline/handlers.js';
import { pendingExports } from '../../shared/store/exports.js';
import type { ExportPorts } from '../../functions/exports/ports.js';
import type { LocalPaths } from './http-server.js';
import { LocalExportQueue } from './local-export-queue.js';
import { LOCAL_EXPORTS_PATH, LocalExportStorage } from './local-export-storage.js';

export interface ExportRuntime extends LocalPaths {
  /** What the export routes use in place of SQS and S3. */
  httpPorts: ExportPorts;
  queue: LocalExportQueue;
  /** Once the server listens at `serverUrl` (download URLs name it, resumed jobs read media from it). */
  start(serverUrl: string): Promise<void>;
  stop(): Promise<void>;
}

export function exportRuntime(options: { inMemory: boolean; dataDir: string }): ExportRuntime {
  const dir = options.inMemory ? mkdtempSync(join(tmpdir(), 'exports-')) : join(options.dataDir, 'exports');
  const storage = new LocalExportStorage(dir);
  const queue = new LocalExportQueue(exportQueueHandler({ storage, readMedia: fetchMedia }));
  return {
    httpPorts: { exportQueue: queue, exportStorage: storage },
    queue,
    async start(serverUrl) {
      storage.serveAt(serverUrl);
      for (const pending of await pendingExports()) await queue.enqueue({ export_id: pending.id });
    },
    async stop() {
      await queue.stop();
      if (options.inMemory) await rm(dir, { recursive: true, force: true });
    },
    handles: (path) => path.startsWith(LOCAL_EXPORTS_PATH),
    async serve(req: IncomingMessage, res: ServerResponse) {
      if (req.method !== 'GET') {
        res.writeHead(405, { allow: 'GET' });
        return void res.end();
      }
      const key = new URL(req.url ?? '/', 'http://localhost').pathname.slice(LOCAL_EXPORTS_PATH.length);
      let file: string;
      try {
        file = storage.fileOf(decodeURIComponent(key));
      } catch {
        res.writeHead(404);
        return void res.end();
      }
      const found = await stat(file).catch(() => undefined);
      if (!found?.isFile() || Date.now() - found.mtimeMs > EXPORT_DOWNLOAD_SECONDS * 1000) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return void res.end('No such export, or its download has closed.\n');
      }
      res.writeHead(200, {
        'content-type': 'application/zip',
        'content-length': String(found.size),
        'content-disposition': 'attachment; filename="export.zip"',
        'cache-control': 'private, no-store',
      });
      createReadStream(file).pipe(res);
    },
  };
}
