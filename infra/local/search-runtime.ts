/**
 * Search in the local runtime: the embedded index (a file under DATA_DIR, or memory with
 * `--in-memory`) fed by the same stream handler as the indexing Lambda from the runtime's poller,
 * and given to the search routes as their port. An index the runtime opens empty (a new file, or
 * one of an older layout) is filled from the table at start (the poller reads only what is written
 * after the table's first start).
 */
import { join } from 'node:path';
import { indexDocumentsHandler } from '../../functions/search-pipeline/handlers.js';
import { reindexFromTable } from '../../shared/search/reindex.js';
import type { StreamHandler } from './stream-poller.js';
import { SqliteSearchIndex } from './sqlite-search-index.js';

/** The embedded index's file under DATA_DIR. */
export const searchIndexPath = (dataDir: string) => join(dataDir, 'search.sqlite');

export interface SearchRuntime {
  index: SqliteSearchIndex;
  onStream: StreamHandler;
  /** Fills a new index from the table (call once the table exists). */
  start(): Promise<void>;
  stop(): void;
}

export function searchRuntime(options: { inMemory: boolean; dataDir: string }): SearchRuntime {
  const path = options.inMemory ? ':memory:' : searchIndexPath(options.dataDir);
  const index = new SqliteSearchIndex(path);
  const onStream = indexDocumentsHandler(index);
  return {
    index,
    onStream: (event) => onStream(event),
    async start() {
      if (index.created) await reindexFromTable(index);
    },
    stop: () => index.close(),
  };
}
