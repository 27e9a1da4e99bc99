/**
 * The per-profile event log (domain/live-events.ts) in the table: one item per event in the
 * profile's partition, on no index (one write of the event's size, nothing else).
 *
 * Appending takes the number after the log's last event with a put conditioned on that id being
 * free: two writers of one profile at once (two stream shards) cannot both take it, the second
 * reads the tail again and takes the next. So ids are handed out in the order the events become
 * readable, and a reader that has seen an id has seen every id below it: a cursor never skips an
 * event written late. The same read of the tail finds an event a replayed change already logged
 * (its `source`), and then nothing is written.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  eventIdOf,
  nextSequence,
  sequenceOf,
  type LiveEvent,
  type LiveEventDraft,
  type LiveEventType,
} from '../domain/live-events.js';
import { retry, type RetryPolicy } from '../pipeline/retry.js';
import { db, tableName } from './client.js';
import { conditionHeld } from './conditional.js';
import { entities, type LoggedEvent } from './entities.js';
import { when } from './expressions.js';
import { putItem, recordOf } from './items.js';
import { pathQuery, queryPathPages } from './paths.js';

const { liveEvent: layout } = entities;

/** Raised when another writer took the id: the tail is read again. */
class SequenceTaken extends Error {}

/**
 * Tries of an append another writer of the same profile may beat: each lost try costs one read of
 * the tail, and writers of one profile at once are the stream shards that carry its changes.
 */
const APPEND_RETRY: RetryPolicy = {
  tries: 20,
  baseDelayMs: 5,
  maxDelayMs: 100,
  retryable: (error) => error instanceof SequenceTaken,
};

/** Events read per page of the tail (a replay looks back to its change's time). */
const TAIL_PAGE = 25;

/**
 * The log's last sequence number and whether `source` is already logged, reading back from the
 * newest event to the first written before `since` (the change's time: no event of it can be
 * older). One short consistent Query, usually one page.
 */
async function readTail(profileId: string, source: string, since: string) {
  let last: number | undefined;
  for await (const page of queryPathPages(
    layout,
    'log',
    { profile_id: profileId },
    { order: 'newest_first', consistent: true, attributes: ['id', 'source', 'created_at'], pageSize: TAIL_PAGE },
  )) {
    for (const event of page) {
      last ??= sequenceOf(profileId, event.id);
      if (event.source === source) return { last, logged: true };
      if (event.created_at < since) return { last, logged: false };
    }
  }
  return { last, logged: false };
}

/**
 * Appends the event once: undefined when its source is already in the log (a replay), else the
 * event as logged. `since`: when the change it comes from was made (a little before, for clocks).
 */
export function appendEvent(draft: LiveEventDraft, since: string, now: () => Date): Promise<LiveEvent | undefined> {
  return retry(async () => {
    const tail = await readTail(draft.profile_id, draft.source, since);
    if (tail.logged) return undefined;
    const at = now();
    const event: LoggedEvent = {
      id: eventIdOf(draft.profile_id, nextSequence(tail.last, at)),
      type: draft.type,
      profile_id: draft.profile_id,
      created_at: at.toISOString(),
      data: draft.data,
      source: draft.source,
    };
    if (!(await conditionHeld(putItem(layout, event)))) throw new SequenceTaken();
    return event;
  }, APPEND_RETRY);
}

export interface EventsRead {
  events: LoggedEvent[];
  /** The id of the last event looked at (of any type): where the next read starts. */
  lastSeen: string | undefined;
}

/**
 * Up to `limit` events of the profile's log after the id `after` (from the first when none), oldest
 * first, only `types` when given (a page filtered may hold fewer; `lastSeen` still moves on).
 * Strongly consistent: an event appended before the read began is in it.
 */
export async function readEventsAfter(
  profileId: string,
  after: string | undefined,
  options: { types?: readonly LiveEventType[] | undefined; limit: number },
): Promise<EventsRead> {
  const { input } = pathQuery(
    layout,
    'log',
    { profile_id: profileId },
    {
      consistent: true,
      pageSize: options.limit,
      ...(after ? { range: { after } } : {}),
      ...(options.types?.length ? { filter: when.oneOf('type', options.types) } : {}),
    },
  );
  const result = await db().send(new QueryCommand({ ...input, TableName: tableName() }));
  const events = (result.Items ?? []).map((item) => recordOf(layout, item));
  const lastKey = result.LastEvaluatedKey?.sk as string | undefined;
  return { events, lastSeen: lastKey ?? events.at(-1)?.id };
}

/** The sequence number of the oldest event the log holds (undefined: none). */
export async function firstSequence(profileId: string): Promise<number | undefined> {
  const { input } = pathQuery(layout, 'log', { profile_id: profileId }, { attributes: ['id'], pageSize: 1 });
  const result = await db().send(new QueryCommand({ ...input, TableName: tableName() }));
  const first = result.Items?.[0];
  return first ? sequenceOf(profileId, recordOf(layout, first).id) : undefined;
}

/** The id of the newest event the log holds (undefined: none). */
export async function newestEventId(profileId: string): Promise<string | undefined> {
  const { input } = pathQuery(
    layout,
    'log',
    { profile_id: profileId },
    { attributes: ['id'], pageSize: 1, order: 'newest_first', consistent: true },
  );
  const result = await db().send(new QueryCommand({ ...input, TableName: tableName() }));
  const newest = result.Items?.[0];
  return newest ? recordOf(layout, newest).id : undefined;
}
