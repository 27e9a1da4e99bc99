/** The one bounded-concurrency helper: never more than `limit` at once, results in order, the first error. */
import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../shared/pipeline/concurrency.js';

/** Lets other promise chains run for a while (no clock involved). */
const yieldTurns = async (turns: number) => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('mapLimit', () => {
  it('never runs more than `limit` at once, and uses all of them', async () => {
    let inFlight = 0;
    let most = 0;
    await mapLimit(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (i) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await yieldTurns(1 + (i % 4));
        inFlight--;
      },
    );
    expect(most).toBe(3);
  });

  it("returns the results in the items' order, whatever order they finish in", async () => {
    const items = [5, 1, 4, 2, 3];
    const finished: number[] = [];
    const results = await mapLimit(items, 5, async (n, index) => {
      await yieldTurns(n);
      finished.push(n);
      return `${index}:${n * 10}`;
    });
    expect(finished).toEqual([1, 2, 3, 4, 5]);
    expect(results).toEqual(['0:50', '1:10', '2:40', '3:20', '4:30']);
  });

  it('starts nothing after a failure, lets the started ones settle, then throws the first error', async () => {
    const started: number[] = [];
    const settled: number[] = [];
    await expect(
      mapLimit([0, 1, 2, 3, 4, 5, 6], 2, async (i) => {
        started.push(i);
        await yieldTurns(i === 1 ? 1 : 3);
        settled.push(i);
        if (i === 1) throw new Error('first');
        if (i === 0) throw new Error('second');
      }),
    ).rejects.toThrow('first');
    expect(started).toEqual([0, 1]);
    expect(settled.sort()).toEqual([0, 1]);
  });

  it('handles no items and a limit above the count', async () => {
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
    expect(await mapLimit([1, 2], 10, async (n) => n * 2)).toEqual([2, 4]);
  });
});
