import { describe, expect, it } from 'vitest';
import { attemptClock } from '../../shared/webhooks/attempt-clock.js';

describe('one clock per attempt', () => {
  it('reads the wall clock once; later instants are that reading plus the monotonic time elapsed', async () => {
    let reads = 0;
    const pinned = new Date('2026-11-22T10:00:00.000Z');
    const clock = attemptClock(() => {
      reads += 1;
      return pinned;
    });
    expect(clock.now).toEqual(pinned);
    const first = clock.later();
    await new Promise((done) => setTimeout(done, 20));
    const second = clock.later();
    expect(reads).toBe(1);
    expect(first.getTime()).toBeGreaterThanOrEqual(pinned.getTime());
    // Never before the first instant, and the pause shows (timers may fire a millisecond early).
    expect(second.getTime() - first.getTime()).toBeGreaterThanOrEqual(19);
    expect(second.getTime() - pinned.getTime()).toBeLessThan(60_000);
  });
});
