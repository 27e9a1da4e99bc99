/**
 * How each consumer of the table stream is fed its batches: the event source mappings of the
 * deployed stack (counters.ts, notifications.ts, search.ts, …) and the local runtime's stream
 * poller (local/delivery-runtime.ts) both read these, so a consumer sees locally the batches it
 * sees deployed and the benchmarks measure the system that is deployed. No CDK here: the local
 * runtime loads it. test/infra/stream-batching.test.ts holds the stack and the poller to it.
 */

export interface StreamBatching {
  /** Records per invocation at most (the event source's batchSize). */
  batchSize: number;
  /**
   * How long records are gathered before an invocation, unless the batch is full first (the event
   * source's maxBatchingWindow; 0: a batch goes as soon as records are there).
   */
  batchingWindowSeconds: number;
}

/** By the local poller's consumer name (which also keys its checkpoints: keep the names stable). */
export const STREAM_BATCHING = {
  'webhook-fan-out': { batchSize: 100, batchingWindowSeconds: 0 },
  'author-cards': { batchSize: 100, batchingWindowSeconds: 0 },
  /**
   * Records of one shard gathered for up to a second: a popular post's counter then takes about
   * one write per stream shard per second, however many likes it gets, and counts stay within the
   * 2 seconds API.md allows.
   */
  'fold-counts': { batchSize: 1000, batchingWindowSeconds: 1 },
  /**
   * As the counter fold: a viral post's notification group takes about one write per stream shard
   * per second, however many likes it gets, and a notification is listed within the 2 seconds
   * API.md allows.
   */
  notify: { batchSize: 1000, batchingWindowSeconds: 1 },
  'media-clean-up': { batchSize: 100, batchingWindowSeconds: 0 },
  'home-feed': { batchSize: 100, batchingWindowSeconds: 0 },
  /** Freshness: a batch goes as soon as records are there (API.md promises 2 s). */
  'search-index': { batchSize: 100, batchingWindowSeconds: 0 },
  /** A person waits for the mail: a batch goes at once, and is small, so one slow SES call holds few mails. */
  mail: { batchSize: 10, batchingWindowSeconds: 0 },
  /** API.md: an audited write is listed within 2 s; a batch goes as soon as records are there. */
  'audit-log': { batchSize: 100, batchingWindowSeconds: 0 },
  /** A WebSocket client waits for its event: a batch goes at once; a profile's events of a batch go five a request. */
  'live-publisher': { batchSize: 100, batchingWindowSeconds: 0 },
} as const satisfies Record<string, StreamBatching>;

export type StreamConsumerName = keyof typeof STREAM_BATCHING;
