/** Lambda: the erasure queue → one step of an erasure each message (shared/erasure/run-step.ts). */
import type { ErasurePorts } from '../../shared/erasure/run-step.js';
import { openSearchIndexFromConfig } from '../../shared/ports/aws/opensearch-search-index.js';
import { s3ExportStorageFromConfig } from '../../shared/ports/aws/s3-export-storage.js';
import { s3MediaStorageFromConfig } from '../../shared/ports/aws/s3-media-storage.js';
import { sqsErasureQueueFromConfig } from '../../shared/ports/aws/sqs-erasure-queue.js';
import { erasureQueueHandler } from './handlers.js';

// Built at the first message, not at import: loading the module needs no configuration.
let ports: ErasurePorts | undefined;
export const handler = erasureQueueHandler(
  () =>
    (ports ??= {
      queue: sqsErasureQueueFromConfig(),
      storage: s3MediaStorageFromConfig(),
      exports: s3ExportStorageFromConfig(),
      search: openSearchIndexFromConfig(),
    }),
);
