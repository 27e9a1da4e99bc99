/**
 * `search({ query })` → `{ results: [{ id, title, url }] }`, the search tool ChatGPT's connectors
 * and deep research call: the people whose names start with the query's words, then the posts
 * that match it best, through the two search routes.
 */
import * as z from 'zod';
import { SearchPostsQuery, SearchProfilesQuery } from '../../http/contract/schemas/search.js';
import type { Outcome, ToolError } from '../call.js';
import { defineCompositeTool, type RouteData } from '../composite.js';
import { documentId, documentUrl, postTitle, profileTitle, SearchResult } from './documents.js';

/** A few people first (a name is what a person searching for someone types), then the posts. */
const PROFILE_RESULTS = 5;
const POST_RESULTS = 20;

/** The longest q each route takes: a longer query is no one's name, and skips profile search. */
const PROFILE_QUERY_MAX = SearchProfilesQuery.shape.q.maxLength!;
const POST_QUERY_MAX = SearchPostsQuery.shape.q.unwrap().maxLength!;

const SearchOutput = z.object({ results: z.array(SearchResult) });
type SearchOutput = z.output<typeof SearchOutput>;

const noProfiles: Outcome<RouteData<'searchProfiles'>> = { ok: true, data: { items: [], next_cursor: null } };

/**
 * One answer of the two: an error that is not about the query (a rate limit, a credential)
 * is the answer; a query only one search can read is that one's results; a query neither can
 * read is post search's error (it speaks the grammar).
 */
function failureOf(...outcomes: Outcome<unknown>[]): ToolError | undefined {
  const errors = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.error]));
  return (
    errors.find((error) => error.error_code !== 'invalid_request') ??
    (errors.length === outcomes.length ? errors.at(-1) : undefined)
  );
}

export const searchTool = defineCompositeTool({
  name: 'search',
  title: 'Search people and posts',
  description:
    `Finds profiles whose username, name or call_name start with the query's words (up to ${PROFILE_RESULTS}), ` +
    `then the published posts that match the query best (up to ${POST_RESULTS}; words, "a phrase", -word, #tag, ` +
    'from:username). Each result id is what fetch takes. Blocks and mutes of the acting profile apply.',
  toolset: 'search',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    query: z.string().trim().min(1).max(POST_QUERY_MAX).meta({ description: 'What to look for.' }),
  }),
  output: SearchOutput,
  routes: ['searchProfiles', 'searchPosts'],
  async run({ query }, { call, baseUrl }): Promise<Outcome<SearchOutput>> {
    const [people, posts] = await Promise.all([
      query.length <= PROFILE_QUERY_MAX ? call('searchProfiles', { q: query, limit: PROFILE_RESULTS }) : noProfiles,
      call('searchPosts', { q: query, sort: 'top', limit: POST_RESULTS }),
    ]);
    const error = failureOf(people, posts);
    if (error) return { ok: false, error };
    const profileResults = (people.ok ? people.data.items : []).map(({ profile }) => ({
      id: documentId('profile', profile.id),
      title: profileTitle(profile),
      url: documentUrl(baseUrl, 'profile', profile.id),
    }));
    const postResults = (posts.ok ? posts.data.items : []).map(({ post, profile }) => ({
      id: documentId('post', post.id),
      title: postTitle(post, profile),
      url: documentUrl(baseUrl, 'post', post.id),
    }));
    return { ok: true, data: { results: [...profileResults, ...postResults] } };
  },
});
