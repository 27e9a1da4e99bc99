import { fetchMedia } from '../../shared/exports/run-export.js';
import { s3ExportStorageFromConfig } from '../../shared/ports/aws/s3-export-storage.js';
import { exportQueueHandler } from './handlers.js';

/** The export queue's consumer in AWS: archives into the export bucket. */
export const handler = exportQueueHandler({ storage: s3ExportStorageFromConfig(), readMedia: fetchMedia });
