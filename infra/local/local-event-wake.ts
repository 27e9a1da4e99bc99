/**
 * The local runtime's EventWake: the stream poller's event-log consumer wakes, in process, every
 * reader waiting on the profile whose log it appended to. One set of waiters per profile; nothing
 * reads the table while nothing happens.
 */
import type { EventWake } from '../../shared/ports/event-wake.js';

export class LocalEventWake implements EventWake {
  private readonly waiting = new Map<string, Set<() => void>>();

  wait(profileId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(profileId) ?? new Set();
      this.waiting.set(profileId, waiters);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(profileId) === waiters) this.waiting.delete(profileId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }

  /** The log of `profileId` grew: every reader waiting on it reads again. */
  wake(profileId: string): void {
    for (const done of [...(this.waiting.get(profileId) ?? [])]) done();
  }
}
