/**
 * The search index's stream consumer around shared/search, given its index: the Lambda entry point
 * wires OpenSearch, the local runtime (infra/local) its embedded index, so both run the same code
 * on the same events.
 */
import { indexChangeOf } from '../../shared/search/index-changes.js';
import { STREAM_STEP_RETRY, streamHandler } from '../../shared/pipeline/stream-consumer.js';
import type { IndexChange, SearchIndex } from '../../shared/ports/search-index.js';
import type { StreamHandler } from '../../shared/ports/shard-stream-event.js';

/**
 * The table stream (posts, profiles, follower counts) → the search index, one write (one `_bulk`)
 * per batch: the changes of one batch form one lane, in stream order, so a document's last change
 * in the batch is the one that stays. Puts and deletes are idempotent: a batch that comes again
 * (the event source takes no partial answer here) writes the same documents again.
 */
export function indexDocumentsHandler(index: SearchIndex | (() => SearchIndex)): StreamHandler {
  const indexOf = typeof index === 'function' ? index : () => index;
  return streamHandler<IndexChange>(
    {
      records: 'search record',
      failure: 'search indexing failed',
      select: indexChangeOf,
      laneOf: () => 'index',
      concurrency: 1,
      retry: STREAM_STEP_RETRY,
      fold: (changes) => indexOf().write(changes),
      describe: (change) => ({ change: change.kind }),
    },
    { reportBatchItemFailures: false },
  );
}
