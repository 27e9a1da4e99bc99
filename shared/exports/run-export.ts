/**
 * The export job: writes the archive of a pending export into the export storage and settles it,
 * ready (with its mail) or failed. A replay of a settled export does nothing; a try that fails
 * midway aborts its upload, and the next try starts the archive again.
 */
import { exportReadyMail } from '../domain/account-mail.js';
import { downloadExpiry } from '../domain/exports.js';
import type { ExportStorage } from '../ports/export-storage.js';
import { getExport, settleExport } from '../store/exports.js';
import { getUser } from '../store/users.js';
import { writeAccountArchive, type MediaReader } from './account-archive.js';
import { ArchiveWriter } from './archive-writer.js';

export interface ExportJobPorts {
  storage: ExportStorage;
  readMedia: MediaReader;
}

/** The media files as served, read over HTTP from their public URLs (the CDN in AWS, the local server locally). */
export const fetchMedia: MediaReader = async function* (url) {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`media file ${url} answered ${response.status}`);
  for await (const chunk of response.body) yield chunk;
};

/** Writes and settles the export; false when there was nothing to do (unknown or settled already). */
export async function runExport(exportId: string, ports: ExportJobPorts): Promise<boolean> {
  const record = await getExport(exportId);
  if (record?.status !== 'pending') return false;
  const user = await getUser(record.user_id);
  if (!user)
    return settleExport(record, {
      status: 'failed',
      completed_at: new Date().toISOString(),
      failure_reason: 'The account no longer exists.',
    });
  const upload = await ports.storage.open(record.object_key);
  let size: number;
  try {
    const writer = new ArchiveWriter(upload);
    await writeAccountArchive(writer, user, new Date(), ports.readMedia);
    size = await writer.finish();
  } catch (error) {
    await upload.abort();
    throw error;
  }
  const completed = new Date();
  return settleExport(record, {
    status: 'ready',
    completed_at: completed.toISOString(),
    size_bytes: size,
    expires_at: downloadExpiry(completed).toISOString(),
    mail: exportReadyMail(completed, record.console_base, user.email),
  });
}

/** The last try failed: the export is settled as failed, with a reason a person can read. */
export async function failExport(exportId: string): Promise<void> {
  const record = await getExport(exportId);
  if (record?.status !== 'pending') return;
  await settleExport(record, {
    status: 'failed',
    completed_at: new Date().toISOString(),
    failure_reason: 'The archive could not be written after several tries. Ask for a new export.',
  });
}
