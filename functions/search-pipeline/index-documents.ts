/** Lambda: the table stream (posts, profiles, follower counts) → the OpenSearch domain, one `_bulk` per batch. */
import { openSearchIndexFromConfig } from '../../shared/ports/aws/opensearch-search-index.js';
import { indexDocumentsHandler } from './handlers.js';

export const handler = indexDocumentsHandler(openSearchIndexFromConfig());
