/**
 * The event publisher of the local runtime: publishes nothing. There is no AppSync Events locally
 * and so no WebSocket subscriber to reach; local clients read the same events over SSE and the
 * poll, straight from the event log (API.md "Live": "Locally: the SSE route and the poll"). A
 * no-op rather than an in-memory list: a list no one reads would grow for as long as the server
 * runs. The stream poller still runs the publisher's consumer with it, so the consumer's selection
 * and decoding run locally on every logged event, as they do deployed.
 */
import type { EventPublisher } from '../../shared/ports/event-publisher.js';

export const localEventPublisher: EventPublisher = {
  publish: () => Promise.resolve(),
};
