import { hourlyBuckets } from '../activity-chart.js';
import type { Delivery } from '../webhooks-api.js';

// Bars are drawn in a fixed grid and stretched to the figure's size; the hour labels are HTML so
// that they keep their size on any screen.
const WIDTH = 480;
const HEIGHT = 100;

/** Succeeded (below) and failed (above) deliveries per hour, last 24 hours, as plain SVG. */
export function ActivityChart({ deliveries, now, note }: { deliveries: Delivery[]; now: Date; note: string }) {
  const buckets = hourlyBuckets(deliveries, now);
  const succeeded = buckets.reduce((n, b) => n + b.succeeded, 0);
  const failed = buckets.reduce((n, b) => n + b.failed, 0);
  const peak = Math.max(1, ...buckets.map((b) => b.succeeded + b.failed));
  const slot = WIDTH / buckets.length;
  const scale = HEIGHT / peak;
  const hourLabel = (start: number) =>
    new Date(start).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Last 24 hours: ${succeeded} succeeded and ${failed} failed deliveries.`}
      >
        {buckets.map((bucket, i) => {
          const okHeight = bucket.succeeded * scale;
          const failHeight = bucket.failed * scale;
          const x = i * slot + 2;
          return (
            <g key={bucket.start}>
              <title>{`${hourLabel(bucket.start)}: ${bucket.succeeded} succeeded, ${bucket.failed} failed`}</title>
              <rect x={x} width={slot - 4} y={HEIGHT - okHeight} height={okHeight} class="bar-succeeded" />
              <rect x={x} width={slot - 4} y={HEIGHT - okHeight - failHeight} height={failHeight} class="bar-failed" />
            </g>
          );
        })}
      </svg>
      <div class="ticks" aria-hidden="true">
        {buckets.map((bucket, i) =>
          i % 6 === 0 ? (
            <span key={bucket.start} style={{ left: `${(i / buckets.length) * 100}%` }}>
              {hourLabel(bucket.start)}
            </span>
          ) : null,
        )}
      </div>
      <figcaption>
        <span class="key key-succeeded" aria-hidden="true" /> {succeeded} succeeded ·{' '}
        <span class="key key-failed" aria-hidden="true" /> {failed} failed, per hour over the last 24 hours. {note}
      </figcaption>
    </figure>
  );
}
