/** Lambda: the uploads bucket's ObjectCreated event (`incoming/<media_id>`) → the media processed (S3 adapter). */
import { s3MediaStorageFromConfig } from '../../shared/ports/aws/s3-media-storage.js';
import { processUploadHandler } from './process-upload-handler.js';

export const handler = processUploadHandler({ storage: s3MediaStorageFromConfig() });
