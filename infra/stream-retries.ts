/**
 * How often a table-stream event source retries a failed record before it sends the record to its
 * failure destination (the CDK stack's stream consumers; the local poller passes over one sooner).
 */
export const STREAM_RETRY_ATTEMPTS = 10;
