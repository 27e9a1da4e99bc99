/**
 * The table stream as its Lambda consumers get it, one shard's batch at a time. A deployed event
 * source with a tumbling window is what makes Lambda name the shard (`shardId`) and ask for a
 * `state` back; the local poller names it too. The exactly-once counter folds key their
 * watermarks by it.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';

export type ShardStreamEvent = DynamoDBStreamEvent & {
  shardId?: string;
  window?: { start: string; end: string };
  state?: Record<string, string>;
};

export type ShardStreamResponse = DynamoDBBatchResponse & { state?: Record<string, string> };

export type StreamHandler = (event: ShardStreamEvent) => Promise<ShardStreamResponse>;

/**
 * The shard an exactly-once fold keys its watermarks by. Without it a watermark cannot tell a
 * repeated record from a new one of another shard, so a fold refuses to run (`what`: the records).
 */
export function foldShardOf(shardId: string | undefined, what: string): string {
  if (!shardId)
    throw new Error(`${what} on a stream event without shardId: the event source needs its tumbling window`);
  return shardId;
}
