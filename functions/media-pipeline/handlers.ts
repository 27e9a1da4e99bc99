/**
 * The media pipeline's Lambdas around their event shapes, given their ports: the Lambda entry
 * points wire the S3 adapter, the local runtime (infra/local/media-runtime.ts) its local one, so
 * both run the same code on the same events.
 */
import type { DynamoDBStreamEvent, S3Event } from 'aws-lambda';
import { config } from '../../shared/config.js';
import { mediaObjectKeys } from '../../shared/domain/media.js';
import { logger } from '../../shared/logger.js';
import {
  mediaIdOfUploadKey,
  processUpload,
  type ProcessUploadPorts,
  type ProcessUploadSettings,
} from '../../shared/media/process-upload.js';
import type { MediaStorage } from '../../shared/ports/media-storage.js';
import { mediaIdOfKey } from '../../shared/store/media.js';

/** The processor's settings from the environment (MEDIA_BASE_URL), read when an event arrives. */
export function processUploadSettingsFromConfig(): ProcessUploadSettings {
  const mediaBaseUrl = config.mediaBaseUrl;
  if (!mediaBaseUrl) throw new Error('MEDIA_BASE_URL is not configured');
  return { mediaBaseUrl };
}

/** An S3 event's object key, as S3 sends it: URL-encoded, spaces as `+`. */
const objectKeyOf = (encoded: string) => decodeURIComponent(encoded.replace(/\+/g, ' '));

/**
 * S3 ObjectCreated on the uploads bucket → the upload processed. Records are processed one after
 * the other (one upload per event in practice); a failure worth a retry throws, and Lambda's
 * asynchronous retries send the event again (the claim's lease lets the retry take over).
 */
export function processUploadHandler(
  ports: ProcessUploadPorts,
  settings: () => ProcessUploadSettings = processUploadSettingsFromConfig,
): (event: S3Event) => Promise<void> {
  return async (event) => {
    for (const record of event.Records) {
      const key = objectKeyOf(record.s3.object.key);
      const mediaId = mediaIdOfUploadKey(key);
      if (!mediaId) {
        logger.warn('upload event for a key that is no media upload', { key });
        continue;
      }
      const result = await processUpload(mediaId, ports, settings());
      logger.info('media upload processed', { media_id: mediaId, result });
    }
  };
}

/**
 * The table stream's REMOVE of a media item (DynamoDB TTL deleted it: never attached within 24
 * hours, or 30 days after it was replaced) → its files deleted. Only the keys are needed (a
 * REMOVE carries no new image). Deleting is idempotent, so a retried batch is harmless.
 */
export function cleanUpMediaHandler(ports: { storage: MediaStorage }): (event: DynamoDBStreamEvent) => Promise<void> {
  return async (event) => {
    for (const record of event.Records) {
      if (record.eventName !== 'REMOVE') continue;
      const keys = record.dynamodb?.Keys;
      const mediaId = mediaIdOfKey({ pk: keys?.pk?.S, sk: keys?.sk?.S });
      if (!mediaId) continue;
      await ports.storage.deleteFiles(mediaObjectKeys.mediaPrefix(mediaId));
      logger.info('media files deleted', { media_id: mediaId });
    }
  };
}
