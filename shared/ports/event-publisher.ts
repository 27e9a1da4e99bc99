/**
 * EventPublisher port: pushes live events to the WebSocket clients subscribed to a channel (API.md
 * "Live"). In AWS, the AppSync Events API's HTTP publish endpoint (aws/appsync-event-publisher.ts);
 * locally nothing (infra/local/local-event-publisher.ts): local clients read the same events over
 * SSE and the poll, from the event log. A publish is fire-and-forget for the subscribers (AppSync
 * keeps no history): the log stays the source of truth, and a client resumes from it by id.
 */
export interface EventPublisher {
  /**
   * Publishes these events, in this order, to the channel (`/profiles/{id}`); each is sent as its
   * JSON. Resolves once every one was accepted; rejects when one was not (some before it may have
   * gone: the caller publishes all again, and clients drop what they had by id).
   */
  publish(channel: string, events: readonly unknown[]): Promise<void>;
}
