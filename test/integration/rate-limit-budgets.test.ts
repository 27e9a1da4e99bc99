import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { RateLimitBudgets } from '../../shared/store/rate-limit-budgets.js';
import { bookWindow, type WindowRef } from '../../shared/store/rate-limits.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';

let recorder: ReturnType<typeof recordDynamoDbCalls>;
beforeAll(() => {
  recorder = recordDynamoDbCalls(db());
});

let serial = 0;
/** A window of its own for each test: counts never meet. */
const windowOf = (limit: number, windowStart = 1_000_000): WindowRef => ({
  policy: 'test',
  subject: `budget-${process.pid}-${Date.now()}-${++serial}`,
  windowStart,
  windowSeconds: 60,
  limit,
});

async function bookedTotal(window: WindowRef): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.rateLimitWindow(window.policy, window.subject, window.windowSeconds, window.windowStart),
      ConsistentRead: true,
    }),
  );
  return Number(Item?.hits ?? 0);
}

describe('booking a window', () => {
  it('never books past the limit, however many book at once', async () => {
    const window = windowOf(5);
    const bookings = await Promise.all(Array.from({ length: 20 }, () => bookWindow(window, 1)));
    expect(
      bookings
        .filter((b) => b.granted === 1)
        .map((b) => b.booked)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(bookings.filter((b) => b.granted === 0)).toHaveLength(15);
    expect(await bookedTotal(window)).toBe(5);
  });

  it('books what remains when less than the slice is left, then nothing', async () => {
    const window = windowOf(10);
    expect(await bookWindow(window, 4)).toEqual({ granted: 4, booked: 4 });
    expect(await bookWindow(window, 4)).toEqual({ granted: 4, booked: 8 });
    expect(await bookWindow(window, 4)).toEqual({ granted: 2, booked: 10 });
    expect(await bookWindow(window, 4)).toEqual({ granted: 0, booked: 10 });
    expect(await bookedTotal(window)).toBe(10);
  });
});

describe('rate-limit budgets of one process', () => {
  it('admits N requests with at most ⌈N/k⌉ + ⌈log2 k⌉ + 1 window writes, numbering them 1..N', async () => {
    const budgets = new RateLimitBudgets();
    const window = windowOf(1000);
    const k = 100;
    const n = 500;
    recorder.reset();
    const hits = [];
    for (let i = 0; i < n; i++) hits.push(await budgets.take(window, k));
    const writes = recorder.calls.filter((call) => call.command === 'UpdateItem').length;
    expect(hits.every((hit) => !hit.limited)).toBe(true);
    expect(hits.map((hit) => hit.count)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(writes).toBeLessThanOrEqual(Math.ceil(n / k) + Math.ceil(Math.log2(k)) + 1);
    expect(writes).toBeGreaterThanOrEqual(Math.ceil(n / k));
    // What was booked and not used is less than one slice.
    expect((await bookedTotal(window)) - n).toBeLessThan(k);
  });

  it('lets concurrent requests share one booking instead of each writing', async () => {
    const budgets = new RateLimitBudgets();
    const window = windowOf(10_000);
    recorder.reset();
    const hits = await Promise.all(Array.from({ length: 200 }, async () => budgets.take(window, 1000)));
    const writes = recorder.calls.filter((call) => call.command === 'UpdateItem').length;
    expect(hits.every((hit) => !hit.limited)).toBe(true);
    expect(new Set(hits.map((hit) => hit.count)).size).toBe(200);
    expect(writes).toBeLessThanOrEqual(3);
  });

  it('refuses at the limit with no further request, and counts afresh in the next window', async () => {
    const budgets = new RateLimitBudgets();
    const window = windowOf(30);
    const hits = [];
    for (let i = 0; i < 30; i++) hits.push(await budgets.take(window, 3));
    expect(hits.every((hit) => !hit.limited)).toBe(true);
    recorder.reset();
    const refused = await budgets.take(window, 3);
    expect(refused).toEqual({ count: 30, limited: true });
    expect(await budgets.take(window, 3)).toEqual({ count: 30, limited: true });
    expect(recorder.calls.filter((call) => call.command === 'UpdateItem').length).toBeLessThanOrEqual(1);

    const next = { ...window, windowStart: window.windowStart + window.windowSeconds };
    expect(await budgets.take(next, 3)).toEqual({ count: 1, limited: false });
    expect(await bookedTotal(next)).toBe(1);
    expect(await bookedTotal(window)).toBe(30);
  });
});

describe('rate-limit budgets of two processes', () => {
  it('together never admit more than the limit, and spend all of it when both keep going', async () => {
    const a = new RateLimitBudgets();
    const b = new RateLimitBudgets();
    const window = windowOf(50);
    const k = 5;
    const hits = await Promise.all(Array.from({ length: 150 }, async (_, i) => (i % 2 === 0 ? a : b).take(window, k)));
    // Both keep taking after the first refusal, so a slice one holds is spent by its own requests.
    const more = await Promise.all(Array.from({ length: 20 }, async (_, i) => (i % 2 === 0 ? a : b).take(window, k)));
    const admitted = [...hits, ...more].filter((hit) => !hit.limited).length;
    expect(admitted).toBeLessThanOrEqual(50);
    expect(await bookedTotal(window)).toBe(50);
    expect(admitted).toBe(50);
  });

  it('refuses early only while another process holds unspent requests, never before half the limit', async () => {
    const a = new RateLimitBudgets();
    const b = new RateLimitBudgets();
    const window = windowOf(40);
    const k = 40;
    // A is busy: its slices grow to what it has admitted (1, 1, 2, 4, 8, 16): after 17 requests it holds 15 unspent.
    let admittedByA = 0;
    while (admittedByA < 17) {
      expect((await a.take(window, k)).limited).toBe(false);
      admittedByA++;
    }
    let admittedByB = 0;
    while (!(await b.take(window, k)).limited) admittedByB++;
    expect(admittedByA + admittedByB).toBeGreaterThanOrEqual(20);
    expect(admittedByA + admittedByB).toBeLessThan(40);
    // A still holds what B could not get.
    let more = 0;
    while (!(await a.take(window, k)).limited) more++;
    expect(admittedByA + admittedByB + more).toBe(40);
  });
});
