/**
 * `events(client)`: the acting profile's events as an async iterator, oldest first, that resumes
 * by itself. It reads the long poll (`GET /v1/events?wait=`) rather than the SSE stream: the poll
 * answers the same log with the same cursor, works through every proxy and in every runtime
 * (no streaming body needed, no 15-minute connections to renew), and a dropped request is
 * simply asked again with the last cursor, so nothing is missed or repeated. A cursor past the
 * log's 7 days ends the iterator with the `cursor_expired` ApiProblem: read the lists again.
 */
import type { ActingClient } from './client.js';
import { ApiProblem, unwrap } from './problem.js';
import type { Schemas } from './schemas.js';

export type LiveEvent = Schemas['LiveEvent'];
export type LiveEventType = LiveEvent['type'];

export interface EventsOptions {
  /** Start after this event id (a `next_cursor`, or an event's id); none: the oldest event kept. */
  after?: string;
  /** Only these types. */
  types?: readonly LiveEventType[];
  /** Seconds each request may wait for an event (1..25; default 25). */
  waitSeconds?: number;
  /** Ends the iteration (the request in flight is aborted). */
  signal?: AbortSignal;
  /** Pause before asking again after a dropped request or a 5xx/429 (default 1000 ms, doubling up to 30 s). */
  retryDelayMs?: number;
}

/** Problems that asking again mends: the network, the service's own errors, a rate limit. */
const passing = (problem: ApiProblem) => problem.status === 0 || problem.status === 429 || problem.status >= 500;

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });

export async function* events(client: ActingClient, options: EventsOptions = {}): AsyncGenerator<LiveEvent> {
  let after = options.after;
  const firstDelay = options.retryDelayMs ?? 1000;
  let delay = firstDelay;
  while (!options.signal?.aborted) {
    let page: { items: LiveEvent[]; next_cursor: string | null };
    try {
      page = await unwrap(
        client.GET('/v1/events', {
          params: {
            query: {
              ...(after ? { after } : {}),
              ...(options.types?.length ? { types: options.types.join(',') } : {}),
              wait: options.waitSeconds ?? 25,
              limit: 100,
            },
          },
          ...(options.signal ? { signal: options.signal } : {}),
        }),
      );
    } catch (error) {
      if (options.signal?.aborted) return;
      if (!(error instanceof ApiProblem) || !passing(error)) throw error;
      await pause(delay, options.signal);
      delay = Math.min(delay * 2, 30_000);
      continue;
    }
    delay = firstDelay;
    for (const event of page.items) yield event;
    after = page.next_cursor ?? after;
  }
}
