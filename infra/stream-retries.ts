/**
 * How often a table-stream event source retries a failed record before it sends the record to its
 * failure destination (the CDK stack's stream consumers), and how often the local stream poller
 * tries one before it passes over it: a record that never succeeds (a malformed one) must not
 * hold its shard for ever.
 */
export const STREAM_RETRY_ATTEMPTS = 10;
