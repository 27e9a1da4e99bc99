/**
 * How the home feed's queue feeds its writer: the SQS event source of the deployed stack (home-feed.ts) and
 * the local runtime's in-process queue (local/feed-runtime.ts) both read these, so
 * the local feed runs as the deployed one does. No CDK here: the local runtime loads it.
 */

/** Feed queue messages per writer invocation: up to 1,000 inbox entries (10 × FAN_OUT_READERS_PER_MESSAGE). */
export const FEED_WRITER_BATCH_SIZE = 10;

/**
 * At most this many writer invocations at once. 100 posts/s of authors with 500 followers each are
 * 500 messages/s; a message takes about 4 BatchWriteItems side by side (~25 ms in AWS), a batch of
 * ten about 50 ms, so about 3 invocations keep up: 20 leaves room for bursts and slow calls
 * without letting one celebrity-sized burst take the account's concurrency.
 */
export const FEED_WRITER_MAX_CONCURRENCY = 20;
