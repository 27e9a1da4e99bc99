/** The one in-process retry: how many tries, how long between them, and which errors get another. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, retry, type RetryPolicy, type RetryTiming } from '../../shared/pipeline/retry.js';

/** Timing that records the pauses instead of waiting, with a fixed draw. */
function recorded(draw = 0.5): RetryTiming & { pauses: number[] } {
  const pauses: number[] = [];
  return { pauses, sleep: async (ms) => void pauses.push(ms), random: () => draw };
}

const policy: RetryPolicy = { tries: 4, baseDelayMs: 100, factor: 3 };

describe('retry', () => {
  it('returns the first success, with the try number handed to the work', async () => {
    const timing = recorded();
    const seen: number[] = [];
    const result = await retry(
      async (n) => {
        seen.push(n);
        if (n < 3) throw new Error(`try ${n}`);
        return 'done';
      },
      policy,
      timing,
    );
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
    expect(timing.pauses).toEqual([100, 300]);
  });

  it('gives up after `tries` tries with the last error', async () => {
    const timing = recorded();
    let calls = 0;
    await expect(
      retry(
        async (n) => {
          calls++;
          throw new Error(`try ${n}`);
        },
        policy,
        timing,
      ),
    ).rejects.toThrow('try 4');
    expect(calls).toBe(4);
    expect(timing.pauses).toEqual([100, 300, 900]);
  });

  it('throws an error that is not retryable at once', async () => {
    const timing = recorded();
    let calls = 0;
    await expect(
      retry(
        async () => {
          calls++;
          throw new TypeError('a bug, not a blip');
        },
        { ...policy, retryable: (error) => !(error instanceof TypeError) },
        timing,
      ),
    ).rejects.toThrow(TypeError);
    expect(calls).toBe(1);
    expect(timing.pauses).toEqual([]);
  });

  it('tries once with tries: 1', async () => {
    let calls = 0;
    await expect(
      retry(
        async () => {
          calls++;
          throw new Error('once');
        },
        { ...policy, tries: 1 },
        recorded(),
      ),
    ).rejects.toThrow('once');
    expect(calls).toBe(1);
  });
});

describe('backoffDelay', () => {
  it('grows by the factor (2 by default) up to the cap', () => {
    const fixed = { tries: 9, baseDelayMs: 25, jitter: 0 };
    expect([1, 2, 3, 4].map((n) => backoffDelay(fixed, n, 0.9))).toEqual([25, 50, 100, 200]);
    expect([1, 2, 3, 4].map((n) => backoffDelay({ ...fixed, maxDelayMs: 60 }, n, 0.9))).toEqual([25, 50, 60, 60]);
    expect([1, 2, 3].map((n) => backoffDelay({ ...fixed, factor: 1 }, n, 0.9))).toEqual([25, 25, 25]);
  });

  it('spreads each pause within ±jitter of its value (±50% by default)', () => {
    const p = { tries: 3, baseDelayMs: 400, factor: 4 };
    expect(backoffDelay(p, 1, 0)).toBe(200);
    expect(backoffDelay(p, 1, 0.5)).toBe(400);
    expect(backoffDelay(p, 1, 0.999999)).toBeLessThan(600);
    expect(backoffDelay(p, 1, 0.999999)).toBeGreaterThan(599);
    expect(backoffDelay(p, 2, 0)).toBe(800);
    expect(backoffDelay({ ...p, jitter: 1 }, 2, 0)).toBe(0);
    expect(backoffDelay({ ...p, jitter: 1 }, 2, 0.75)).toBe(2400);
  });

  it('keeps real draws within the bounds', async () => {
    const pauses: number[] = [];
    await expect(
      retry(
        async () => {
          throw new Error('always');
        },
        { tries: 50, baseDelayMs: 10, factor: 1, jitter: 0.5 },
        { sleep: async (ms) => void pauses.push(ms), random: Math.random },
      ),
    ).rejects.toThrow('always');
    expect(pauses).toHaveLength(49);
    expect(pauses.every((ms) => ms >= 5 && ms < 15)).toBe(true);
  });
});
