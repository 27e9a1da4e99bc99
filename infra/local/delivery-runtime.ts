/**
 * The webhook delivery machinery of the local runtime, in-process: the stream poller feeding the
 * fan-out handler, the in-process queue feeding the sender handler, the in-process scheduler, and
 * the sweeper (at start and every few seconds). Same handlers as in Lambda.
 */
import { config } from '../../shared/config.js';
import { LocalDeliveryQueue } from '../../shared/ports/local-delivery-queue.js';
import { LocalRetryScheduler } from '../../shared/ports/local-retry-scheduler.js';
import { useDeliveryPorts } from '../../shared/ports/delivery-ports.js';
import { undiciSender } from '../../shared/ports/http-sender.js';
import { sweepDeliveries } from '../../shared/webhooks/sweep.js';
import { handler as fanOut } from '../../functions/webhooks/fan-out.js';
import { handler as sendDelivery } from '../../functions/webhooks/send-delivery.js';
import { StreamPoller } from './stream-poller.js';

const SWEEP_EVERY_MS = 3000;
/** Locally a due delivery is queued by a timer at once; 10 s overdue means the timer was lost. */
const SWEEP_GRACE_MS = 10_000;

export interface DeliveryRuntime {
  stop(): Promise<void>;
}

export async function startDeliveryRuntime(dynamodbEndpoint: string): Promise<DeliveryRuntime> {
  if (config.webhookUrlPolicy === 'allow-local') {
    console.warn('WARNING: WEBHOOK_URL_POLICY=allow-local: webhook deliveries may go to http://127.0.0.1 / localhost receivers. Never use this in production.');
  }
  const queue = new LocalDeliveryQueue(sendDelivery, { batchSize: 10, maxConcurrency: 10, redeliverAfterMs: 5000 });
  const scheduler = new LocalRetryScheduler(queue);
  useDeliveryPorts({ queue, scheduler, http: undiciSender });

  const poller = new StreamPoller(dynamodbEndpoint, fanOut);
  await poller.start();

  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = (graceMs: number) => {
    sweeping = sweeping.then(() => sweepDeliveries(new Date(), graceMs)).catch((error) => console.error('sweeper:', (error as Error).message));
    return sweeping;
  };
  // At start: whatever was due while the server was down (timers do not survive a restart).
  await sweep(0);
  const timer = setInterval(() => void sweep(SWEEP_GRACE_MS), SWEEP_EVERY_MS);

  return {
    async stop() {
      clearInterval(timer);
      scheduler.stop();
      await poller.stop();
      await sweeping;
      await queue.stop();
      useDeliveryPorts(undefined);
    },
  };
}
