/**
 * How the deliveries queue feeds the sender: the SQS event source of the deployed stack
 * (webhook-pipeline.ts) and the local runtime's in-process queue (local/delivery-runtime.ts) both
 * read these, so the local sender is fed as the deployed one is. No CDK here: the local runtime
 * loads it.
 */

/** Queue messages per sender invocation. */
export const SENDER_BATCH_SIZE = 10;

/**
 * At most this many sender invocations at once (the event source's maximum concurrency): bounds
 * the outbound connections and table writes that a burst of deliveries causes, without throttles.
 * Keep it above WEBHOOK_WORKSPACE_MAX_IN_FLIGHT (default 10): hanging receivers of one workspace
 * hold at most that many invocations, the rest serve the other workspaces.
 */
export const SENDER_MAX_CONCURRENCY = 20;
