/**
 * The webhook delivery machinery of the local runtime, in-process: the stream poller feeding the
 * fan-out (and every other consumer of the table stream beside it: author cards, counter folds,
 * notifications, the live publisher, and those the runtime passes in), the in-process queue feeding the sender, the
 * in-process scheduler, and the sweeper (at start and every few seconds). The same handlers as in Lambda, wired here with the local adapters;
 * the local server gives the enqueuing HTTP handlers the same in-process queue (`httpPorts`).
 */
import { staleClaimMs } from '../../shared/domain/webhooks.js';
import type { DeliveryPorts } from '../../shared/ports/delivery-ports.js';
import { undiciSender } from '../../shared/ports/outbound/undici-sender.js';
import { sweepDeliveries } from '../../shared/webhooks/sweep.js';
import {
  deliverySettingsFromConfig,
  fanOutHandler,
  sendDeliveryHandler,
} from '../../functions/webhook-pipeline/handlers.js';
import type { LocalHttpPorts } from './http-server.js';
import { SENDER_BATCH_SIZE, SENDER_MAX_CONCURRENCY } from '../sender-event-source.js';
import { LocalDeliveryQueue } from './local-delivery-queue.js';
import { LocalRetryScheduler } from './local-retry-scheduler.js';
import { StreamPoller, type StreamConsumers, type StreamHandler } from './stream-poller.js';
import { STREAM_BATCHING, type StreamConsumerName } from '../stream-batching.js';
import { handler as refreshAuthorCards } from '../../functions/profile-stream/refresh-author-cards.js';
import { foldCountsHandler } from '../../functions/counters/fold-counts.js';
import { WHOLE_STREAM_KEEP_SECONDS } from '../../shared/store/shard-watermarks.js';
import { notifyHandler } from '../../functions/notifications-pipeline/notify.js';
import { handler as recordAudit } from '../../functions/audit/record-audit.js';
import { publishEventsHandler } from '../../functions/live-publisher/handlers.js';
import { localEventPublisher } from './local-event-publisher.js';

const SWEEP_EVERY_MS = 3000;
/** Locally a due delivery is queued by a timer at once; 10 s overdue means the timer was lost. */
const SWEEP_GRACE_MS = 10_000;

export interface DeliveryRuntime {
  /** What the HTTP functions that enqueue deliveries use in place of SQS (ready before `start`). */
  httpPorts: Pick<LocalHttpPorts, 'queue'>;
  /** The stream poller's consumers, batched as the stack's event sources batch them. */
  streamConsumers: StreamConsumers;
  /** Starts the stream poller and the sweeper (a first sweep at once); nothing runs before. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The table stream's consumers the local server brings beside the webhook pipeline's. */
export type OtherStreamHandlers = Record<
  Extract<StreamConsumerName, 'media-clean-up' | 'home-feed' | 'search-index' | 'mail'>,
  StreamHandler
>;

/** Each handler with the batching of its event source in the stack (infra/stream-batching.ts). */
const batchedAsDeployed = (handlers: Record<StreamConsumerName, StreamHandler>): StreamConsumers =>
  Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      { handler, ...STREAM_BATCHING[name as StreamConsumerName] },
    ]),
  );

export function deliveryRuntime(dynamodbEndpoint: string, otherHandlers: OtherStreamHandlers): DeliveryRuntime {
  const settings = deliverySettingsFromConfig();
  if (settings.urlPolicy === 'allow-local') {
    console.warn(
      'WARNING: WEBHOOK_URL_POLICY=allow-local: webhook deliveries may go to http://127.0.0.1 / localhost receivers. Never use this in production.',
    );
  }
  // The queue feeds the sender, whose ports include the queue: tie the knot through a closure.
  // Like the deployed event source, more sender invocations than one workspace may keep busy
  // (WEBHOOK_WORKSPACE_MAX_IN_FLIGHT): hanging receivers of one tenant cannot take them all.
  const queue = new LocalDeliveryQueue((event) => sendDelivery(event), {
    batchSize: SENDER_BATCH_SIZE,
    maxConcurrency: Math.max(SENDER_MAX_CONCURRENCY, settings.inFlight.perWorkspace * 3),
    redeliverAfterMs: 5000,
  });
  const scheduler = new LocalRetryScheduler(queue);
  const ports: DeliveryPorts = { queue, scheduler, http: undiciSender };
  const sendDelivery = sendDeliveryHandler(ports, settings);

  // One poller stands in for every stream event source of the AWS stack: each consumer reads the
  // stream on its own (their filters are in the handlers).
  // No record age bound here: a batch may come again after a restart, however long the server was down.
  const streamConsumers = batchedAsDeployed({
    'webhook-fan-out': fanOutHandler(ports),
    'author-cards': refreshAuthorCards,
    'fold-counts': foldCountsHandler(WHOLE_STREAM_KEEP_SECONDS),
    notify: notifyHandler(WHOLE_STREAM_KEEP_SECONDS),
    'audit-log': recordAudit,
    // No AppSync Events locally: local clients read the log over SSE (local-event-publisher.ts).
    'live-publisher': publishEventsHandler(localEventPublisher),
    ...otherHandlers,
  });
  const poller = new StreamPoller(dynamodbEndpoint, streamConsumers);

  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = (graceMs: number) => {
    sweeping = sweeping
      .then(() => sweepDeliveries(new Date(), ports, { graceMs, staleClaimMs: staleClaimMs(settings.timeoutMs) }))
      .catch((error) => console.error('sweeper:', (error as Error).message));
    return sweeping;
  };
  let timer: NodeJS.Timeout | undefined;

  return {
    httpPorts: { queue },
    streamConsumers,
    async start() {
      await poller.start();
      // At start: whatever was due while the server was down (timers do not survive a restart).
      await sweep(0);
      timer = setInterval(() => void sweep(SWEEP_GRACE_MS), SWEEP_EVERY_MS);
    },
    async stop() {
      clearInterval(timer);
      scheduler.stop();
      await poller.stop();
      await sweeping;
      await queue.stop();
    },
  };
}
