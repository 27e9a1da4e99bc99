/**
 * The workspace audit log's items (keys.ts "audit entry"): one partition per workspace per UTC
 * day, sorted by time, so a day's writes spread over days' partitions and a page reads the newest
 * days first. Written by the audit consumer from the stamps, listed by the audit-log route.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  AUDIT_RETENTION_DAYS,
  auditDayOf,
  dayBefore,
  oldestKeptDay,
  type AuditActorKind,
  type AuditEntry,
} from '../domain/audit.js';
import { invalidCursor } from '../errors.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { db, tableName } from './client.js';
import { epochSeconds } from './epoch.js';
import { entityTags, keys } from './keys.js';
import type { Page } from './pagination.js';
import { TABLE } from './table.js';

/** Puts at once when a batch records many entries. */
const PUTS_AT_ONCE = 8;

/**
 * Days one page reads at most before it answers (with a cursor to the next day): an empty or
 * sparse log costs a page a bounded number of reads, not the 90 days of its retention.
 */
const DAYS_PER_PAGE = 14;

const ENTRY_FIELDS = ['id', 'at', 'actor', 'acting_profile_id', 'action', 'target', 'ip_prefix', 'request_id'] as const;

/**
 * Records entries: a put per entry, keyed by its own id (from the stamp the write left on its
 * item), so a stream record delivered again writes the same item again (idempotent, no condition
 * to fail) and two writes of one request never share an item.
 */
export async function recordAuditEntries(entries: readonly { workspaceId: string; entry: AuditEntry }[]) {
  await mapLimit(entries, PUTS_AT_ONCE, ({ workspaceId, entry }) =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.auditEntry(workspaceId, auditDayOf(entry.at), entry.at, entry.id),
          entity: entityTags.auditEntry,
          ...entry,
          [TABLE.ttlAttribute]: epochSeconds(entry.at) + AUDIT_RETENTION_DAYS * 86_400,
        },
      }),
    ),
  );
}

export interface AuditQuery {
  actorKind?: AuditActorKind | undefined;
  action?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** A position: the day to read next, and the sort key to read on from within it. */
interface Position {
  day: string;
  after?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function decodePosition(cursor: string, now: Date): Position {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const { day, after } = (position ?? {}) as Record<string, unknown>;
  if (typeof day !== 'string' || !DAY.test(day) || day > auditDayOf(now.toISOString())) throw invalidCursor();
  if (after !== undefined && typeof after !== 'string') throw invalidCursor();
  return after === undefined ? { day } : { day, after };
}

const encodePosition = (position: Position) => Buffer.from(JSON.stringify(position)).toString('base64url');

/** Newest first: the workspace's entries kept on `now`, filtered by actor kind and action. */
export async function listAuditEntries(workspaceId: string, query: AuditQuery, now: Date): Promise<Page<AuditEntry>> {
  const oldest = oldestKeptDay(now);
  let { day, after } = query.cursor ? decodePosition(query.cursor, now) : { day: auditDayOf(now.toISOString()) };
  const items: AuditEntry[] = [];
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.actorKind) {
    filters.push('#actor.#kind = :kind');
    Object.assign(names, { '#actor': 'actor', '#kind': 'kind' });
    values[':kind'] = query.actorKind;
  }
  if (query.action) {
    filters.push('#action = :action');
    names['#action'] = 'action';
    values[':action'] = query.action;
  }
  for (let read = 0; read < DAYS_PER_PAGE && day >= oldest; read++) {
    const pk = keys.auditDay(workspaceId, day);
    let start: Record<string, unknown> | undefined = after ? { pk, sk: after } : undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ...(filters.length > 0 ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: { ':pk': pk, ...values },
          ScanIndexForward: false,
          Limit: query.limit - items.length,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) items.push(entryOfItem(item));
      start = page.LastEvaluatedKey;
      if (items.length >= query.limit) {
        const last = (start?.sk as string | undefined) ?? keySortOf(items.at(-1)!);
        return { items, next_cursor: encodePosition({ day, after: last }) };
      }
    } while (start);
    day = dayBefore(day);
    after = undefined;
  }
  return { items, next_cursor: day >= oldest ? encodePosition({ day }) : null };
}

const keySortOf = (entry: AuditEntry) => keys.auditEntry('', '', entry.at, entry.id).sk;

function entryOfItem(item: Record<string, unknown>): AuditEntry {
  const entry: Record<string, unknown> = {};
  for (const field of ENTRY_FIELDS) entry[field] = item[field];
  return entry as unknown as AuditEntry;
}
