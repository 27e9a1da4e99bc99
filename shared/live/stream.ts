/**
 * The event stream of one profile as Server-Sent Events (API.md "Live"): each event as `id:`,
 * `event:` and `data:`, in log order from the cursor on, a comment line every 15 seconds, until
 * the client goes or the connection's time is up (the client resumes by Last-Event-ID).
 */
import { publicEvent, type LiveEvent, type LiveEventType } from '../domain/live-events.js';
import type { EventWake } from '../ports/event-wake.js';
import type { ResponseSink } from '../ports/response-sink.js';
import { newestEventId } from '../store/event-log.js';
import { readOrWait } from './read.js';

/** A comment line this often keeps proxies and clients from taking a quiet stream for a dead one. */
export const HEARTBEAT_MS = 15_000;
/** Events read per round: a client far behind gets them in pages. */
const PAGE = 100;
/** How soon EventSource reconnects after the connection ends (the field `retry:`). */
const RECONNECT_MS = 1000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
  // In AWS the stream is on its own origin (the streaming REST API, reached by a 307 from the
  // API's): a browser's EventSource may read it from any page. Safe for any origin: the stream is
  // opened by a bearer credential or a ticket, never by a cookie.
  'access-control-allow-origin': '*',
};

/** One event as an SSE message (JSON has no raw newline, so `data:` is one line). */
export const sseMessage = (event: LiveEvent): string =>
  `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(publicEvent(event))}\n\n`;

export interface StreamRequest {
  profileId: string;
  /** Checked already; none: from the newest event on. */
  after: string | undefined;
  types: readonly LiveEventType[] | undefined;
}

/** Streams until the client goes or `forMs` has passed; the sink is opened here and ended here. */
export async function streamEvents(
  request: StreamRequest,
  sink: ResponseSink,
  wake: EventWake,
  forMs: number,
): Promise<void> {
  const until = Date.now() + forMs;
  let after = request.after ?? (await newestEventId(request.profileId));
  sink.open(200, SSE_HEADERS);
  sink.write(`retry: ${RECONNECT_MS}\n\n`);
  let beatAt = Date.now() + HEARTBEAT_MS;
  while (!sink.closed.aborted && Date.now() < until) {
    const read = await readOrWait(
      { profileId: request.profileId, after, types: request.types, limit: PAGE },
      wake,
      Math.max(0, Math.min(beatAt, until) - Date.now()),
      sink.closed,
    );
    for (const event of read.events) sink.write(sseMessage(event));
    after = read.lastSeen ?? after;
    if (Date.now() >= beatAt) {
      sink.write(': keep-alive\n\n');
      beatAt = Date.now() + HEARTBEAT_MS;
    }
  }
  sink.end();
}
