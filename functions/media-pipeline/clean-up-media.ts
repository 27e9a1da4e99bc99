/** Lambda: the table stream, filtered to REMOVEs of media items (TTL) → the media's files deleted from the media bucket. */
import { s3MediaStorageFromConfig } from '../../shared/ports/aws/s3-media-storage.js';
import { cleanUpMediaHandler } from './clean-up-media-handler.js';

export const handler = cleanUpMediaHandler({ storage: s3MediaStorageFromConfig() });
