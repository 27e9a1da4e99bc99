/**
 * Erasure in the local runtime: the same queue consumer as the erasure Lambda, on an in-process
 * queue that also stands in for the one-off schedules, with the runtime's media files and search
 * index and export files. At start it resumes what a stopped server left: jobs in progress go on
 * from the chains not yet walked (a chain half walked starts again and finds less), scheduled ones
 * are timed again.
 */
import { erasureQueueHandler } from '../../functions/erasure/handlers.js';
import { startMessage } from '../../shared/domain/erasure.js';
import type { ExportStorage } from '../../shared/ports/export-storage.js';
import type { MediaStorage } from '../../shared/ports/media-storage.js';
import type { SearchIndex } from '../../shared/ports/search-index.js';
import { erasureJobsOfStatus } from '../../shared/store/erasure-jobs.js';
import { LocalErasureQueue } from './local-erasure-queue.js';

export interface ErasureRuntime {
  queue: LocalErasureQueue;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function erasureRuntime(ports: {
  storage: MediaStorage;
  exports: ExportStorage;
  search: SearchIndex;
}): ErasureRuntime {
  // The consumer enqueues on the queue that feeds it: tie the knot through a closure.
  const queue: LocalErasureQueue = new LocalErasureQueue((event) => consume(event));
  const consume = erasureQueueHandler(() => ({ queue, ...ports }));
  return {
    queue,
    async start() {
      const [running, scheduled] = await Promise.all([
        erasureJobsOfStatus('in_progress'),
        erasureJobsOfStatus('scheduled'),
      ]);
      await queue.send(running.map(startMessage));
      for (const job of scheduled) await queue.schedule(startMessage(job), new Date(job.scheduled_for));
    },
    stop: () => queue.stop(),
  };
}
