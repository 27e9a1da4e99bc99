/**
 * Search cursors: opaque, and bound to the search that handed them out (a digest of its query and
 * filters), so a cursor of another search, or one not handed out at all, is `invalid_request`.
 * `latest` pages after the last post seen (new posts do not shift the next page); ranked lists
 * (`top`, profiles) page by offset.
 */
import { createHash } from 'node:crypto';
import { invalidCursor } from '../errors.js';
import type { SearchPosition } from '../ports/search-index.js';

/** Ranked lists go this deep: beyond, a search should be narrowed rather than paged. */
export const MAX_SEARCH_OFFSET = 1000;

interface CursorBody {
  /** The search's digest. */
  s: string;
  /** After this post (latest)... */
  a?: { p: string; i: string };
  /** ...or after this many results (ranked). */
  o?: number;
}

/** The digest of a search's defining parameters (everything but limit and cursor). */
export function searchDigest(parameters: Record<string, unknown>): string {
  const defining = Object.entries(parameters)
    .filter(([name, value]) => name !== 'limit' && name !== 'cursor' && value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256').update(JSON.stringify(defining)).digest('base64url').slice(0, 16);
}

export function encodeSearchCursor(digest: string, position: SearchPosition): string {
  const body: CursorBody =
    'after' in position
      ? { s: digest, a: { p: position.after.published_at, i: position.after.id } }
      : { s: digest, o: position.offset };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The position a cursor of this search names; anything else throws `invalid_request`. */
export function decodeSearchCursor(cursor: string, digest: string, ranked: boolean): SearchPosition {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof body !== 'object' || body === null) throw invalidCursor();
  const { s, a, o, ...rest } = body as Record<string, unknown>;
  if (s !== digest || Object.keys(rest).length > 0) throw invalidCursor();
  if (ranked) {
    if (a !== undefined || typeof o !== 'number' || !Number.isInteger(o) || o < 1 || o > MAX_SEARCH_OFFSET)
      throw invalidCursor();
    return { offset: o };
  }
  if (o !== undefined || typeof a !== 'object' || a === null) throw invalidCursor();
  const { p, i, ...more } = a as Record<string, unknown>;
  if (typeof p !== 'string' || typeof i !== 'string' || Object.keys(more).length > 0) throw invalidCursor();
  return { after: { published_at: p, id: i } };
}
