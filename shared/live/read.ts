/**
 * Reading a profile's event log the way every transport does (the poll, the stream, the MCP
 * tool through the poll): a cursor checked against the log, then the events after it, waiting for
 * one when there are none yet.
 */
import { isOlderThanLog, sequenceOf, type LiveEventType } from '../domain/live-events.js';
import { viewerFilterOf } from '../domain/safety.js';
import { AppError } from '../errors.js';
import type { EventWake } from '../ports/event-wake.js';
import { firstSequence, readEventsAfter, type EventsRead } from '../store/event-log.js';
import { loadSafetySets } from '../store/safety.js';
import { presentEvents } from './present.js';

const foreignCursor = () =>
  new AppError('invalid_request', {
    message: "The cursor is not an event id of the acting profile's log.",
    hint: "Pass back next_cursor (or an event id) exactly as this profile's events answered it.",
  });

const expiredCursor = () =>
  new AppError('cursor_expired', {
    hint: 'Events older than 7 days are gone: read the lists again (GET /v1/notifications, the conversations, the feed), then read GET /v1/events without after and follow its next_cursor.',
  });

/** `after` if it is a place in the profile's log that still holds every event after it; else 400 or 410. */
export async function checkedCursor(profileId: string, after: string): Promise<string> {
  const sequence = sequenceOf(profileId, after);
  if (sequence === undefined) throw foreignCursor();
  if (isOlderThanLog(sequence, await firstSequence(profileId))) throw expiredCursor();
  return after;
}

export interface ReadRequest {
  profileId: string;
  after: string | undefined;
  types?: readonly LiveEventType[] | undefined;
  limit: number;
}

/**
 * The events after `after` as answered (present.ts), those the profile's blocks and mutes hide or
 * whose post is gone left out; `lastSeen` moves past them. The blocks and mutes are read beside the
 * log; a page holding a `feed.post` reads its posts after it (one BatchGetItem: the price of
 * logging a post by reference, DESIGN.md "The event log and live transports").
 */
async function readShown(request: ReadRequest): Promise<EventsRead> {
  const [read, sets] = await Promise.all([
    readEventsAfter(request.profileId, request.after, request),
    loadSafetySets(request.profileId),
  ]);
  return { ...read, events: await presentEvents(request.profileId, read.events, viewerFilterOf(sets)) };
}

/**
 * The events after `after`; when there are none, waits up to `waitMs` (or until `signal` aborts)
 * for the log to grow, and reads again each time it may have. The wake-up is asked for before each
 * read, so an event appended between the read and the wait still ends the wait.
 */
export async function readOrWait(
  request: ReadRequest,
  wake: EventWake,
  waitMs: number,
  signal?: AbortSignal,
): Promise<EventsRead> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const left = deadline - Date.now();
    const stop = new AbortController();
    const woken =
      left > 0
        ? wake.wait(request.profileId, left, AbortSignal.any([stop.signal, ...(signal ? [signal] : [])]))
        : undefined;
    const read = await readShown(request);
    if (read.events.length > 0 || !woken || signal?.aborted) {
      stop.abort();
      return read;
    }
    await woken;
    // A types filter may have passed events over: the next read starts after them.
    if (read.lastSeen) request = { ...request, after: read.lastSeen };
    if (Date.now() >= deadline || signal?.aborted) return { events: [], lastSeen: request.after };
  }
}
