/**
 * The clean-up Lambda around its event shape, given its storage: the Lambda entry point
 * (clean-up-media.ts) wires the S3 adapter, the local runtime its local one. It does not import
 * the processor (nor sharp).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mediaObjectKeys } from '../../shared/domain/media.js';
import { logger } from '../../shared/logger.js';
import type { MediaStorage } from '../../shared/ports/media-storage.js';
import { mediaIdOfKey } from '../../shared/store/media.js';

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
