/** Succeeded and failed deliveries per hour over the last 24 hours, for the activity chart. */
export interface HourBucket {
  /** Start of the hour (ms since epoch). */
  start: number;
  succeeded: number;
  failed: number;
}

const HOUR = 3_600_000;

interface ChartDelivery {
  status: string;
  updated_at: string;
}

/**
 * 24 one-hour buckets ending with the current (partial) hour; each finished delivery counts in the
 * hour it was last updated, which is when it succeeded or failed for good.
 */
export function hourlyBuckets(deliveries: readonly ChartDelivery[], now: Date): HourBucket[] {
  const currentHour = Math.floor(now.getTime() / HOUR) * HOUR;
  const first = currentHour - 23 * HOUR;
  const buckets: HourBucket[] = Array.from({ length: 24 }, (_, i) => ({
    start: first + i * HOUR,
    succeeded: 0,
    failed: 0,
  }));
  for (const delivery of deliveries) {
    if (delivery.status !== 'succeeded' && delivery.status !== 'failed') continue;
    const index = Math.floor((Date.parse(delivery.updated_at) - first) / HOUR);
    const bucket = buckets[index];
    if (!bucket) continue;
    if (delivery.status === 'succeeded') bucket.succeeded += 1;
    else bucket.failed += 1;
  }
  return buckets;
}
