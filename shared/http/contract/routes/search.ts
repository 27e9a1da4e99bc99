/** The search routes: people (typeahead) and posts (query grammar and filters), both public. */
import { defineRoute } from '../route.js';
import { page } from '../schemas/common.js';
import { PostWithProfile } from '../schemas/posts.js';
import { Profile } from '../schemas/profiles.js';
import { SearchPostsQuery, SearchProfilesQuery } from '../schemas/search.js';
import * as z from 'zod';

export const ProfileHit = z.object({ profile: Profile }).meta({ id: 'ProfileHit' });

export const routes = {
  searchProfiles: defineRoute({
    method: 'GET',
    path: '/v1/search/profiles',
    handler: 'search/search-profiles',
    tag: 'Search',
    summary: 'Finds profiles by the beginnings of the words of their username, name or call_name (public, paginated).',
    description:
      'Typeahead: case- and accent-insensitive prefixes, every word of q must start a word of the profile. An exact ' +
      'username comes first, then the matches with the most followers. Filters: type, occupation, country_code. ' +
      'Suspended profiles never appear. With a valid credential and X-Profile-Id, profiles the acting profile blocks or ' +
      'mutes are left out. Changes show within 2 seconds.',
    auth: 'none',
    actingProfile: { required: false },
    query: SearchProfilesQuery,
    status: 200,
    response: page(ProfileHit),
    errors: [],
    mcp: { title: 'Search profiles', toolset: 'search' },
  }),
  searchPosts: defineRoute({
    method: 'GET',
    path: '/v1/search/posts',
    handler: 'search/search-posts',
    tag: 'Search',
    summary: 'Finds published posts by words, phrases, hashtags, authors and mentions (public, paginated).',
    description:
      'q: words (all must match, case and accents ignored), "a phrase", -word (must not match), #tag (the post\'s ' +
      'hashtags only) and from:username. At least one of q, hashtag, author_profile_id or mentions_profile_id is ' +
      'required. since (inclusive) and until (exclusive) compare published_at. sort=latest (default) is newest first, ' +
      'top ranks by relevance and then likes. With a valid credential and X-Profile-Id, posts of profiles the acting ' +
      'profile blocks or mutes are left out. A publish, edit or removal shows within 2 seconds.',
    auth: 'none',
    actingProfile: { required: false },
    query: SearchPostsQuery,
    status: 200,
    response: page(PostWithProfile),
    errors: [],
    mcp: { title: 'Search posts', toolset: 'search' },
  }),
};
