/**
 * Profile search as the route answers it: q's words as prefixes, the index asked for ids, the
 * profiles read as they are now (suspended ones, and those the caller blocks, is blocked by or
 * mutes, left out), and the next page's cursor.
 */
import type { ProfileRecord, ProfileType } from '../domain/entities.js';
import type { ViewerFilter } from '../domain/safety.js';
import { wordsOf } from '../domain/search-query.js';
import type { Page } from '../store/pagination.js';
import { getProfiles } from '../store/profiles.js';
import type { SearchIndex } from '../ports/search-index.js';
import { decodeSearchCursor, encodeSearchCursor, MAX_SEARCH_OFFSET, searchDigest } from './cursor.js';
import { isSuspended } from '../domain/reports.js';

export interface ProfileSearchQuery {
  q: string;
  type?: ProfileType | undefined;
  occupation?: string | undefined;
  country_code?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

export async function searchProfiles(
  index: SearchIndex,
  query: ProfileSearchQuery,
  viewer: ViewerFilter,
): Promise<Page<ProfileRecord>> {
  const digest = searchDigest({ ...query, q: query.q.toLowerCase(), country_code: query.country_code?.toUpperCase() });
  const position = query.cursor ? decodeSearchCursor(query.cursor, digest, true) : undefined;
  const offset = position && 'offset' in position ? position.offset : 0;
  const prefixes = wordsOf(query.q);
  // Punctuation only: no word to start.
  if (prefixes.length === 0) return { items: [], next_cursor: null };
  const ids = await index.searchProfiles({
    prefixes,
    exact_username: query.q.toLowerCase().replace(/^@/, ''),
    type: query.type,
    occupation: query.occupation,
    country_code: query.country_code?.toUpperCase(),
    limit: query.limit,
    offset,
  });
  const page = ids.slice(0, query.limit);
  const next = ids.length > query.limit && offset + query.limit <= MAX_SEARCH_OFFSET;
  const found = await getProfiles(page);
  return {
    items: page.flatMap((id) => {
      const profile = found.get(id);
      return profile && !isSuspended(profile) && !viewer.hidesAuthor(id) ? [profile] : [];
    }),
    next_cursor: next ? encodeSearchCursor(digest, { offset: offset + query.limit }) : null,
  };
}
