import { describe, expect, it } from 'vitest';
import { hourlyBuckets } from '../../console/app/activity-chart.js';
import {
  deliveryQuery,
  fromLocalInput,
  hasFilters,
  recoverWindowProblem,
  toLocalInput,
} from '../../console/app/delivery-filters.js';

const delivery = (status: string, updated_at: string, extra: Record<string, string> = {}) => ({
  status,
  updated_at,
  event_type: 'profile.followed',
  webhook_endpoint_id: 'e1',
  ...extra,
});

describe('delivery filters', () => {
  it("sends only the filters that are set, in the API's query names, with the page", () => {
    expect(
      deliveryQuery(
        { status: 'failed', event_type: '', since: '2026-11-21T00:00:00.000Z' },
        { limit: 20, cursor: 'abc' },
      ),
    ).toEqual({
      status: 'failed',
      since: '2026-11-21T00:00:00.000Z',
      limit: 20,
      cursor: 'abc',
    });
    expect(deliveryQuery({ webhook_endpoint_id: 'e1', until: '2026-11-22T00:00:00.000Z' })).toEqual({
      webhook_endpoint_id: 'e1',
      until: '2026-11-22T00:00:00.000Z',
    });
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ event_type: 'post.reply' })).toBe(true);
  });

  it('turns datetime-local values into instants and back', () => {
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('not a date')).toBeUndefined();
    const iso = fromLocalInput('2026-11-21T09:30')!;
    expect(new Date(iso).getHours()).toBe(9);
    expect(toLocalInput(iso)).toBe('2026-11-21T09:30');
  });

  it('checks a recovery window like the API: since required, until after since, at most 14 days', () => {
    const now = new Date('2026-11-22T12:00:00.000Z');
    expect(recoverWindowProblem(undefined, undefined, now)).toMatch(/starts/);
    expect(recoverWindowProblem('2026-11-22T11:00:00.000Z', '2026-11-22T10:00:00.000Z', now)).toMatch(/end after/);
    expect(recoverWindowProblem('2026-11-23T00:00:00.000Z', undefined, now)).toMatch(/future/);
    expect(recoverWindowProblem('2026-11-01T00:00:00.000Z', undefined, now)).toMatch(/14 days/);
    expect(recoverWindowProblem('2026-11-08T12:00:00.000Z', undefined, now)).toBeUndefined();
    expect(recoverWindowProblem('2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z', now)).toBeUndefined();
  });
});

describe('activity chart buckets', () => {
  it('counts finished deliveries per hour over the last 24 hours and nothing older or unfinished', () => {
    const now = new Date('2026-11-22T12:30:00.000Z');
    const buckets = hourlyBuckets(
      [
        delivery('succeeded', '2026-11-22T12:10:00.000Z'),
        delivery('failed', '2026-11-22T12:20:00.000Z'),
        delivery('succeeded', '2026-11-21T13:00:00.000Z'),
        delivery('succeeded', '2026-11-21T12:59:59.999Z'),
        delivery('pending', '2026-11-22T12:00:00.000Z'),
        delivery('delivering', '2026-11-22T12:00:00.000Z'),
      ],
      now,
    );
    expect(buckets).toHaveLength(24);
    expect(buckets[0]!.start).toBe(Date.parse('2026-11-21T13:00:00.000Z'));
    expect(buckets[0]).toMatchObject({ succeeded: 1, failed: 0 });
    expect(buckets[23]).toMatchObject({ start: Date.parse('2026-11-22T12:00:00.000Z'), succeeded: 1, failed: 1 });
    expect(buckets.reduce((n, b) => n + b.succeeded + b.failed, 0)).toBe(3);
  });
});
