/**
 * The home feed in the local runtime, in-process: the same stream handler as the feed's fan-out
 * Lambda, fed by the runtime's stream poller, handing fan-outs to the same writer through an
 * in-process feed queue.
 */
import { feedQueueHandler, feedStreamHandler } from '../../functions/feed-pipeline/handlers.js';
import { FEED_WRITER_BATCH_SIZE, FEED_WRITER_MAX_CONCURRENCY } from '../feed-event-sources.js';
import type { StreamHandler } from './stream-poller.js';
import { LocalFeedQueue } from './local-feed-queue.js';

/** The feed's stream consumer, for the local runtime's poller. */
export function feedRuntime(): { onStream: StreamHandler } {
  // The queue feeds the writer, which may send to the queue (a walk's next page): tie the knot through a closure.
  const queue = new LocalFeedQueue((event) => writeInboxes(event), {
    batchSize: FEED_WRITER_BATCH_SIZE,
    maxConcurrency: FEED_WRITER_MAX_CONCURRENCY,
  });
  const writeInboxes = feedQueueHandler(queue);
  return { onStream: feedStreamHandler(queue) };
}
