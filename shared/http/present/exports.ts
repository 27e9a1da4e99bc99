import { isDownloadable, type ExportRecord } from '../../domain/exports.js';
import type { ExportStorage } from '../../ports/export-storage.js';
import { Export } from '../contract/schemas/exports.js';
import { declared } from './declared.js';

/** An export as the API answers it: a download URL signed now, while the download is open. */
export async function presentExport(record: ExportRecord, storage: ExportStorage, now: Date) {
  const download_url =
    isDownloadable(record, now) && record.expires_at
      ? await storage.downloadUrl(record.object_key, new Date(record.expires_at))
      : null;
  return declared(Export, { ...record, download_url });
}

/** An export just asked for: pending, nothing to download yet (no storage to ask). */
export const presentNewExport = (record: ExportRecord) => declared(Export, { ...record, download_url: null });
