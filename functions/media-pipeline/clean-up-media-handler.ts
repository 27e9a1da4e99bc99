/**
 * The clean-up Lambda around its event shape, given its storage: the Lambda entry point
 * (clean-up-media.ts) wires the S3 adapter, the local runtime its local one. It does not import
 * the processor (nor sharp).
 */
import { mediaObjectKeys } from '../../shared/domain/media.js';
import { logger } from '../../shared/logger.js';
import { streamHandler } from '../../shared/pipeline/stream-consumer.js';
import type { MediaStorage } from '../../shared/ports/media-storage.js';
import type { StreamHandler } from '../../shared/ports/shard-stream-event.js';
import { mediaIdOfKey } from '../../shared/store/media.js';

/** Media whose files are deleted at once. */
const MEDIA_AT_ONCE = 4;

/**
 * The table stream's REMOVE of a media item (DynamoDB TTL deleted it: never attached within 24
 * hours, or 30 days after it was replaced) → its files deleted. Only the keys are needed (a
 * REMOVE carries no new image). Deleting is idempotent, so a retried batch is harmless: the event
 * source takes no partial answer, and a failure sends the whole batch again.
 */
export function cleanUpMediaHandler(ports: { storage: MediaStorage }): StreamHandler {
  return streamHandler<string>(
    {
      records: 'media record',
      failure: 'media clean-up failed',
      select: (record) => {
        if (record.eventName !== 'REMOVE') return undefined;
        const keys = record.dynamodb?.Keys;
        const mediaId = mediaIdOfKey({ pk: keys?.pk?.S, sk: keys?.sk?.S });
        return mediaId ? { ok: true, record: mediaId } : undefined;
      },
      concurrency: MEDIA_AT_ONCE,
      each: async (mediaId) => {
        await ports.storage.deleteFiles(mediaObjectKeys.mediaPrefix(mediaId));
        logger.info('media files deleted', { media_id: mediaId });
      },
      describe: (mediaId) => ({ media_id: mediaId }),
    },
    { reportBatchItemFailures: false },
  );
}
