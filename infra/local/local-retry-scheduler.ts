import type { DeliveryMessage, DeliveryQueue } from '../../shared/ports/delivery-queue.js';
import type { RetryScheduler } from '../../shared/ports/retry-scheduler.js';

/**
 * The local stand-in for EventBridge Scheduler: an in-process timer that puts the message on the
 * queue when due. Timers die with the process; the sweeper finds the due deliveries after a restart.
 */
export class LocalRetryScheduler implements RetryScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly queue: DeliveryQueue) {}

  async schedule(message: DeliveryMessage, at: Date): Promise<void> {
    // setTimeout's limit is ~24.8 days; retries are at most a day away.
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.queue.enqueue(message).catch((error) => console.error('local scheduler: enqueue failed', error));
      },
      Math.max(0, at.getTime() - Date.now()),
    );
    this.timers.add(timer);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
