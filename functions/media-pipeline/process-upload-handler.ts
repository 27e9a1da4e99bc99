/**
 * The processor Lambda around its event shape, given its ports: the Lambda entry point
 * (process-upload.ts) wires the S3 adapter, the local runtime (infra/local/media-runtime.ts) its
 * local one, so both run the same code on the same events.
 */
import type { S3Event } from 'aws-lambda';
import { config } from '../../shared/config.js';
import { logger } from '../../shared/logger.js';
import {
  mediaIdOfUploadKey,
  processUpload,
  type ProcessUploadPorts,
  type ProcessUploadSettings,
} from '../../shared/media/process-upload.js';

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
