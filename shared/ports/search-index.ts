/**
 * The search index (API.md "Search"): documents written by the stream consumer, queried by the
 * search routes. Two adapters: the embedded one (shared/search/sqlite-search-index.ts, node:sqlite
 * FTS5, the local default) and Amazon OpenSearch Service (shared/ports/aws/opensearch-search-index.ts).
 * The index answers ids in order; the routes read the records themselves from the table, so what
 * they answer is the post or profile as it is now.
 */
import type { PostKind } from '../domain/posts.js';
import type { ProfileType } from '../domain/entities.js';
import type { PostQueryTerms } from '../domain/search-query.js';

/** What post search filters and ranks on. */
export interface PostDocument {
  id: string;
  profile_id: string;
  /** The author's username (`from:`). */
  username: string;
  kind: PostKind;
  body: string;
  hashtags: string[];
  /** Usernames @mentioned in the body (lower case). */
  mentions: string[];
  has_media: boolean;
  published_at: string;
  likes_count: number;
}

/** What profile search matches and ranks on. */
export interface ProfileDocument {
  id: string;
  username: string;
  name: string;
  call_name: string;
  type: ProfileType;
  occupation: string | null;
  country_code: string | null;
}

/** One change of the index; a batch of them is written at once. */
export type IndexChange =
  | { kind: 'put_post'; post: PostDocument }
  | { kind: 'delete_post'; id: string }
  | { kind: 'put_profile'; profile: ProfileDocument }
  | { kind: 'delete_profile'; id: string }
  /** The counter fold's total: ranks a profile among the prefix matches (it may come before the profile). */
  | { kind: 'followers'; profile_id: string; followers_count: number };

/** Where a page starts: after a post (newest first), or after a number of ranked results. */
export type SearchPosition = { after: { published_at: string; id: string } } | { offset: number };

export interface PostSearch {
  terms: PostQueryTerms;
  author_profile_id?: string | undefined;
  /** The username whose mentions are asked for. */
  mentions?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  has_media?: boolean | undefined;
  kind?: PostKind | undefined;
  sort: 'latest' | 'top';
  limit: number;
  position?: SearchPosition | undefined;
}

export interface ProfileSearch {
  /** The words of q, each matched as the prefix of a word of username, name or call_name. */
  prefixes: string[];
  /** q as a username: that profile first. */
  exact_username: string;
  type?: ProfileType | undefined;
  occupation?: string | undefined;
  country_code?: string | undefined;
  limit: number;
  offset: number;
}

/** A hit of post search, with what the next page's position is made of. */
export interface PostHit {
  id: string;
  published_at: string;
}

export interface SearchIndex {
  write(changes: readonly IndexChange[]): Promise<void>;
  /** Up to `limit` + 1 hits (one more tells that there is a next page). */
  searchPosts(search: PostSearch): Promise<PostHit[]>;
  /** Up to `limit` + 1 profile ids, in rank order. */
  searchProfiles(search: ProfileSearch): Promise<string[]>;
  /** Empties the index (the reindex starts from nothing). */
  clear(): Promise<void>;
}
