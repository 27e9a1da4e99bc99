/**
 * The per-profile event log (API.md "Live"): its event types, how long it keeps them, and its
 * event ids. An id is the event's place in its profile's log, a sequence number, with a check of
 * the profile it belongs to: ids sort in log order, a cursor of another profile's log or an
 * altered one is told apart without a read (it is a position, not a secret: nothing is gained by
 * forging one of one's own log). No AWS here.
 */
import { createHash } from 'node:crypto';

export const LIVE_EVENT_TYPES = [
  'notification.created',
  'notification.updated',
  'message.created',
  'conversation.read',
  'feed.post',
  'profile.deleted',
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** Days an event stays in its log (its item's TTL). */
export const EVENT_LOG_DAYS = 7;

/** One event of one profile's log, as every transport answers it. */
export interface LiveEvent {
  id: string;
  type: LiveEventType;
  profile_id: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** An event before its place in the log is known; `source` names the change it came from (a replay finds it). */
export interface LiveEventDraft {
  type: LiveEventType;
  profile_id: string;
  data: Record<string, unknown>;
  source: string;
}

/**
 * What the log keeps of a `feed.post`: the post, by id. The post and its author are read when the
 * event is read or published (shared/live/present.ts), so a follower's log holds none of the
 * author's words or identity, and a post gone or hidden since is simply left out.
 */
export type FeedPostReference = { post_id: string };

/** The post a logged `feed.post` refers to; undefined for any other event. */
export const referencedPost = (event: Pick<LiveEvent, 'type' | 'data'>): string | undefined =>
  event.type === 'feed.post' && typeof event.data.post_id === 'string' ? event.data.post_id : undefined;

/** Digits of a sequence number in an id (hours since 1970 × 10⁹ fit in 16 until the year 3110). */
const ID_SEQUENCE_DIGITS = 16;
const CHECK_LENGTH = 8;
const EVENT_ID = /^(\d{16})-([0-9a-f]{8})$/;

const checkOf = (profileId: string, sequence: string) =>
  createHash('sha256').update(`${profileId}:${sequence}`).digest('hex').slice(0, CHECK_LENGTH);

/** The id of the event at `sequence` in the log of `profileId`. */
export function eventIdOf(profileId: string, sequence: number): string {
  const digits = String(sequence).padStart(ID_SEQUENCE_DIGITS, '0');
  return `${digits}-${checkOf(profileId, digits)}`;
}

/** The sequence number of an id of `profileId`'s log; undefined for an id of another log, or altered. */
export function sequenceOf(profileId: string, id: string): number | undefined {
  const match = EVENT_ID.exec(id);
  if (!match || checkOf(profileId, match[1]!) !== match[2]) return undefined;
  return Number(match[1]);
}

/** Numbers one run of a log may use before the next hour's start: far more events than a log holds in 7 days. */
const PER_HOUR = 1_000_000_000;

/**
 * The sequence number of the next event: the one after the log's last. A log with no event (new,
 * or all expired) starts at its hour's number (hours since 1970 × 10⁹): far above any number an
 * earlier, expired run of the same log reached, so an old cursor never names a new event; and
 * the same for two writers that find the log empty at once, so they contend for it like any
 * other number (one gets it, the other takes the next) instead of both starting a run.
 */
export const nextSequence = (last: number | undefined, now: Date): number =>
  last === undefined ? Math.floor(now.getTime() / 3_600_000) * PER_HOUR : last + 1;

/**
 * Whether a cursor at `after` has missed events the log no longer holds: the log's first event
 * is not the one right after it (its numbers run without gaps within one run of the log).
 */
export const isOlderThanLog = (after: number, first: number | undefined): boolean =>
  first !== undefined && after < first - 1;

/** An event as answered: the log item's record without its bookkeeping (its source). */
export const publicEvent = (e: LiveEvent): LiveEvent => ({
  id: e.id,
  type: e.type,
  profile_id: e.profile_id,
  created_at: e.created_at,
  data: e.data,
});
