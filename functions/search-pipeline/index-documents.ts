/** Lambda: the table stream (posts, profiles, follower counts) → the OpenSearch domain, one `_bulk` per batch. */
import { openSearchIndexFromConfig } from '../../shared/ports/aws/opensearch-search-index.js';
import { indexDocumentsHandler } from './handlers.js';

// Resolved at the first batch, not at import: loading the module needs no domain.
export const handler = indexDocumentsHandler(openSearchIndexFromConfig);
