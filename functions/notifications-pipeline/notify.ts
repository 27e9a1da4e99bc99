/**
 * Lambda: the table stream, filtered to outbox events, pending grants, and reaction and follow
 * items → the recipients' notifications (shared/notifications/from-stream.ts), grouped reasons
 * folded once per shard's batch. The local runtime runs the same handler from its stream poller,
 * with the watermark keep of a consumer that has no record age bound.
 */
import { NOTIFY_WATERMARK_KEEP_SECONDS, notifies, notifyFromStream } from '../../shared/notifications/from-stream.js';
import { streamBatchResponse } from '../../shared/pipeline/batch-failures.js';
import type { StreamHandler } from '../../shared/ports/shard-stream-event.js';

export function notifyHandler(watermarkKeepSeconds: number): StreamHandler {
  return async (event) => {
    if (!notifies(event.Records)) return streamBatchResponse(event, []);
    const failed = await notifyFromStream(event.Records, event.shardId, {
      now: new Date(),
      keepSeconds: watermarkKeepSeconds,
    });
    return streamBatchResponse(event, failed);
  };
}

export const handler = notifyHandler(NOTIFY_WATERMARK_KEEP_SECONDS);
