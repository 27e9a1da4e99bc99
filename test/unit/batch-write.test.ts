/** BatchWriteItem in bounded batches, with what DynamoDB leaves unprocessed sent again (the call itself stubbed). */
import { describe, expect, it } from 'vitest';
import { batchWrite, type WriteRequest } from '../../shared/store/batch.js';

const put = (n: number): WriteRequest => ({ PutRequest: { Item: { pk: `P#${n}`, sk: 'S', n } } });
const numbers = (requests: WriteRequest[]) =>
  requests.map((r) => ('PutRequest' in r ? (r.PutRequest.Item.n as number) : -1));
const fast = { concurrency: 4, attempts: 5, backoffMs: 1 };

describe('batchWrite', () => {
  it('sends calls of at most 25, no more than `concurrency` at once', async () => {
    const calls: number[][] = [];
    let inFlight = 0;
    let most = 0;
    await batchWrite(
      Array.from({ length: 260 }, (_, i) => put(i)),
      { ...fast, concurrency: 3 },
      async (requests) => {
        inFlight++;
        most = Math.max(most, inFlight);
        calls.push(numbers(requests));
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return [];
      },
    );
    expect(calls).toHaveLength(11);
    expect(Math.max(...calls.map((c) => c.length))).toBe(25);
    expect(calls.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 260 }, (_, i) => i));
    expect(most).toBe(3);
  });

  it('sends unprocessed items again until none are left', async () => {
    const written = new Set<number>();
    let calls = 0;
    await batchWrite(
      Array.from({ length: 25 }, (_, i) => put(i)),
      fast,
      async (requests) => {
        calls++;
        // DynamoDB takes the first half of each call and hands back the rest.
        const taken = requests.slice(0, Math.ceil(requests.length / 2));
        for (const n of numbers(taken)) written.add(n);
        return requests.slice(taken.length);
      },
    );
    expect(written.size).toBe(25);
    expect(calls).toBe(5); // 25 → 12 → 6 → 3 → 1 → 0
  });

  it('fails after `attempts` calls of a batch that still has unprocessed items, saying how many', async () => {
    let calls = 0;
    await expect(
      batchWrite([put(1), put(2)], fast, async (requests) => {
        calls++;
        // A throttled partition: the write of item 2 never gets through.
        return requests.filter((r) => numbers([r])[0] === 2);
      }),
    ).rejects.toThrow('BatchWriteItem left 1 of 2 writes unprocessed after 5 calls');
    expect(calls).toBe(5);
  });
});
