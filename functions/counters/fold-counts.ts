/**
 * Lambda: the table stream, filtered to reaction, follow and quote-mark items → the counters they
 * move (likes_count, reactions_count, followers_count, quotes_count), each record exactly once
 * (shared/counters/from-stream.ts). The local runtime runs the same handler from its stream
 * poller, with the watermark keep of a consumer that has no record age bound.
 */
import { COUNTS_WATERMARK_KEEP_SECONDS, countedChangeOf, foldCounts } from '../../shared/counters/from-stream.js';
import { streamBatchResponse } from '../../shared/pipeline/batch-failures.js';
import { foldShardOf, type StreamHandler } from '../../shared/ports/shard-stream-event.js';

export function foldCountsHandler(watermarkKeepSeconds: number): StreamHandler {
  return async (event) => {
    if (!event.Records.some((record) => countedChangeOf(record) !== undefined)) return streamBatchResponse(event, []);
    const failed = await foldCounts(event.Records, foldShardOf(event.shardId, 'counted records'), {
      now: new Date(),
      keepSeconds: watermarkKeepSeconds,
    });
    return streamBatchResponse(event, failed);
  };
}

export const handler = foldCountsHandler(COUNTS_WATERMARK_KEEP_SECONDS);
