import { Duration } from 'aws-cdk-lib';
import { STREAM_BATCHING, type StreamConsumerName } from './stream-batching.js';

/** A table-stream event source's batching props, as the local poller batches the same consumer. */
export function eventSourceBatching(consumer: StreamConsumerName): { batchSize: number; maxBatchingWindow: Duration } {
  const { batchSize, batchingWindowSeconds } = STREAM_BATCHING[consumer];
  return { batchSize, maxBatchingWindow: Duration.seconds(batchingWindowSeconds) };
}
