/**
 * Post search as the route answers it: the query read (grammar, hashtag, mentions), the index
 * asked for ids, the posts read as they are now (published ones, by authors neither suspended
 * nor hidden from the caller by a block or mute), and the next page's cursor. The caller's blocks
 * and mutes apply to the page read, so a page may hold fewer than `limit` posts; its cursor still
 * leads on from where the index stopped.
 */
import { authoredBy, type AuthorFilter } from '../domain/disclosure.js';
import type { ViewerFilter } from '../domain/safety.js';
import { normalHashtag } from '../domain/hashtags.js';
import type { PostKind } from '../domain/posts.js';
import { parsePostQuery } from '../domain/search-query.js';
import type { Page } from '../store/pagination.js';
import type { PostWithCard } from '../store/posts.js';
import { getProfile } from '../store/profiles.js';
import { getPostsWithCards } from '../store/posts.js';
import type { PostSearch, SearchIndex } from '../ports/search-index.js';
import { decodeSearchCursor, encodeSearchCursor, MAX_SEARCH_OFFSET, searchDigest } from './cursor.js';
import { isSuspended } from '../domain/reports.js';

export interface PostSearchQuery {
  q?: string | undefined;
  author_profile_id?: string | undefined;
  hashtag?: string | undefined;
  mentions_profile_id?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  has_media?: 'true' | 'false' | undefined;
  kind?: PostKind | undefined;
  sort: 'latest' | 'top';
  /** Read with the page (the stored `automated` flag), like blocks and mutes: a page may come out shorter. */
  authors?: AuthorFilter | undefined;
  limit: number;
  cursor?: string | undefined;
}

export async function searchPosts(
  index: SearchIndex,
  query: PostSearchQuery,
  viewer: ViewerFilter,
): Promise<Page<PostWithCard>> {
  const digest = searchDigest({ ...query });
  const ranked = query.sort === 'top';
  const position = query.cursor ? decodeSearchCursor(query.cursor, digest, ranked) : undefined;
  const terms = parsePostQuery(query.q ?? '');
  if (query.hashtag) terms.hashtags.push(normalHashtag(query.hashtag)!);
  const mentioned = query.mentions_profile_id ? await getProfile(query.mentions_profile_id) : undefined;
  // Nobody mentions a profile that does not exist.
  if (query.mentions_profile_id && !mentioned) return { items: [], next_cursor: null };
  const search: PostSearch = {
    terms,
    author_profile_id: query.author_profile_id,
    mentions: mentioned?.username,
    since: query.since,
    until: query.until,
    has_media: query.has_media === undefined ? undefined : query.has_media === 'true',
    kind: query.kind,
    sort: query.sort,
    limit: query.limit,
    position,
  };
  const hits = await index.searchPosts(search);
  const page = hits.slice(0, query.limit);
  const more = hits.length > query.limit && page.length > 0;
  const offset = (position && 'offset' in position ? position.offset : 0) + query.limit;
  const next = !more
    ? null
    : ranked
      ? offset <= MAX_SEARCH_OFFSET
        ? encodeSearchCursor(digest, { offset })
        : null
      : encodeSearchCursor(digest, { after: page[page.length - 1]! });
  const found = await getPostsWithCards(page.map((hit) => hit.id));
  return {
    items: found.filter(
      ({ post, author }) =>
        post.status === 'published' &&
        !isSuspended(author) &&
        !viewer.hidesAuthor(post.profile_id) &&
        authoredBy(query.authors ?? 'all', post),
    ),
    next_cursor: next,
  };
}
