/**
 * `npm run search:reindex`: rebuilds the search index from the table. With SEARCH_ENDPOINT set (AWS,
 * credentials from the environment) it rebuilds the OpenSearch domain's indexes; otherwise the
 * embedded index under DATA_DIR of the local runtime (DYNAMODB_ENDPOINT: the running DynamoDB
 * Local, as `npm start` prints it; the local runtime also rebuilds a missing index file at start).
 */
import { config } from '../shared/config.js';
import { openSearchIndexFromConfig } from '../shared/ports/aws/opensearch-search-index.js';
import type { SearchIndex } from '../shared/ports/search-index.js';
import { reindexFromTable } from '../shared/search/reindex.js';
import { searchIndexPath } from '../infra/local/search-runtime.js';
import { SqliteSearchIndex } from '../infra/local/sqlite-search-index.js';

async function main(): Promise<void> {
  let index: SearchIndex;
  let where: string;
  if (config.searchEndpoint) {
    index = openSearchIndexFromConfig();
    where = config.searchEndpoint;
  } else {
    where = searchIndexPath(config.dataDir);
    index = new SqliteSearchIndex(where);
  }
  const started = Date.now();
  const written = await reindexFromTable(index);
  if (index instanceof SqliteSearchIndex) index.close();
  console.log(
    `search index rebuilt: ${written} documents from table ${config.tableName} into ${where} in ${Date.now() - started} ms`,
  );
}

main().catch((error: Error) => {
  console.error(`search:reindex failed: ${error.message}`);
  process.exit(1);
});
