/**
 * The export job against DynamoDB Local, in process, through its queue consumer: a try that fails
 * is handed back to the queue (its upload aborted) and the export stays pending; the last try
 * settles it failed with a reason and frees the user's claim; a replay of a settled export does
 * nothing; the one-at-a-time claim refuses a second start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { exportQueueHandler } from '../../functions/export-pipeline/handlers.js';
import { LocalExportStorage } from '../../infra/local/local-export-storage.js';
import { receivedAgain, sqsRecord } from '../../infra/local/local-sqs.js';
import { EXPORT_JOB_TRIES, newExport } from '../../shared/domain/exports.js';
import type { MediaReader } from '../../shared/exports/account-archive.js';
import type { ExportStorage, ExportUpload } from '../../shared/ports/export-storage.js';
import { exportMessageBody } from '../../shared/ports/export-queue.js';
import { getExport, startExport } from '../../shared/store/exports.js';
import { logger } from '../../shared/logger.js';
import { signUp } from '../support/api.js';

const dir = mkdtempSync(join(tmpdir(), 'export-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noMedia: MediaReader = () => {
  throw new Error('no media in these accounts');
};

/** A storage whose uploads fail at their first write, counting opens and aborts. */
function failingStorage() {
  const counts = { opened: 0, aborted: 0 };
  const storage: ExportStorage = {
    open: () => {
      counts.opened++;
      const upload: ExportUpload = {
        write: () => Promise.reject(new Error('the disk is full')),
        complete: () => Promise.reject(new Error('not reached')),
        abort: () => {
          counts.aborted++;
          return Promise.resolve();
        },
      };
      return Promise.resolve(upload);
    },
    downloadUrl: () => Promise.resolve('unused'),
    delete: () => Promise.resolve(),
  };
  return { storage, counts };
}

async function pendingExport() {
  const user = await signUp();
  const record = newExport(new Date(), user.user.id, 'http://127.0.0.1');
  await startExport(record, new Date());
  return record;
}

describe('the export job', () => {
  it('hands a failed try back to the queue, aborting its upload, and settles the export failed on the last', async () => {
    const record = await pendingExport();
    const { storage, counts } = failingStorage();
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const handle = exportQueueHandler({ storage, readMedia: noMedia });
    let message = sqsRecord(exportMessageBody({ export_id: record.id }), 'exports');
    for (let attempt = 1; attempt <= EXPORT_JOB_TRIES; attempt++) {
      const answer = await handle({ Records: [message] });
      expect(answer.batchItemFailures, `try ${attempt}`).toEqual([{ itemIdentifier: message.messageId }]);
      const current = await getExport(record.id);
      expect(current!.status, `try ${attempt}`).toBe(attempt < EXPORT_JOB_TRIES ? 'pending' : 'failed');
      message = receivedAgain(message);
    }
    expect(counts).toEqual({ opened: EXPORT_JOB_TRIES, aborted: EXPORT_JOB_TRIES });
    expect(logged.mock.calls.map(([message]) => message)).toEqual(Array(EXPORT_JOB_TRIES).fill('export job failed'));
    logged.mockRestore();
    const failed = await getExport(record.id);
    expect(failed).toMatchObject({ status: 'failed', size_bytes: null, expires_at: null });
    expect(failed!.failure_reason).toMatch(/could not be written/);
    expect(failed!.completed_at).not.toBeNull();
    // The claim went with it: the user may ask again.
    await expect(startExport(newExport(new Date(), record.user_id, 'http://127.0.0.1'), new Date())).resolves.toBe(
      undefined,
    );
  });

  it('writes a ready archive once: a replayed message of a settled export opens nothing', async () => {
    const record = await pendingExport();
    const storage = new LocalExportStorage(dir);
    const handle = exportQueueHandler({ storage, readMedia: noMedia });
    const message = sqsRecord(exportMessageBody({ export_id: record.id }), 'exports');
    expect((await handle({ Records: [message] })).batchItemFailures).toEqual([]);
    const ready = await getExport(record.id);
    expect(ready).toMatchObject({ status: 'ready', failure_reason: null });
    expect(ready!.size_bytes).toBeGreaterThan(0);

    const { storage: untouched, counts } = failingStorage();
    const replay = exportQueueHandler({ storage: untouched, readMedia: noMedia });
    expect((await replay({ Records: [receivedAgain(message)] })).batchItemFailures).toEqual([]);
    expect(counts.opened).toBe(0);
    expect(await getExport(record.id)).toEqual(ready);
  });

  it('refuses a second start while one is pending, with invalid_state', async () => {
    const record = await pendingExport();
    await expect(
      startExport(newExport(new Date(), record.user_id, 'http://127.0.0.1'), new Date()),
    ).rejects.toMatchObject({ code: 'invalid_state' });
  });
});
