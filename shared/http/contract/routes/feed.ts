/** The home feed route: method, path, auth, schemas and the errors it can answer with. */
import { defineRoute } from '../route.js';
import { PageQuery, page } from '../schemas/common.js';
import { AuthorsQuery } from '../schemas/disclosure.js';
import { PostWithProfile } from '../schemas/posts.js';

export const routes = {
  getFeed: defineRoute({
    method: 'GET',
    path: '/v1/feed',
    handler: 'feed/get-feed',
    tag: 'Feed',
    summary:
      'The home feed of the acting profile: published posts and quotes (not replies) of the profiles it follows and its own, newest first (paginated).',
    description:
      "Each post once, with viewer_reaction. A followed profile's new post appears within 5 seconds; a removed post, and " +
      'the posts of a profile no longer followed, are never answered again; following a profile brings its recent posts ' +
      'in. The feed keeps the newest 800 entries of the last 30 days: past them next_cursor is null. A page can hold fewer ' +
      'than limit items while next_cursor continues (authors= is applied to the page read, so it can thin a page too).',
    auth: 'credential',
    scope: 'posts:read',
    actingProfile: { required: true },
    query: PageQuery.extend(AuthorsQuery),
    status: 200,
    response: page(PostWithProfile),
    errors: [],
    mcp: { name: 'get_feed', title: 'Read your home feed', toolset: 'feed' },
  }),
};
