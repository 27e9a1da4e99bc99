/** The thread route: a post with the chain above it and its direct replies. */
import { defineRoute } from '../route.js';
import { PageQuery } from '../schemas/common.js';
import { AuthorsQuery } from '../schemas/disclosure.js';
import { PostIdParams } from '../schemas/posts.js';
import { Thread } from '../schemas/threads.js';

export const routes = {
  getThread: defineRoute({
    method: 'GET',
    path: '/v1/posts/{post_id}/thread',
    handler: 'threads/get-thread',
    tag: 'Posts',
    summary: 'A post in its thread: its ancestors (root first), the post, its direct replies (oldest first, paged).',
    description:
      'Public (404 for a post the caller cannot read: unknown, or a draft or removed post of another author). Up to 20 ' +
      'ancestors, the nearest kept; one that is removed, a draft or hidden from the caller is `{ post: null, profile: ' +
      'null, post_id, unavailable: true }`. Replies are the published direct replies, paged by limit and cursor; each ' +
      "has its reply_count, so the same route opens the next level. With a valid credential and X-Profile-Id, every post's " +
      "viewer_reaction is that profile's reaction. authors= filters the replies only (applied to the page read, so a " +
      'page can hold fewer than limit).',
    auth: 'none',
    actingProfile: { required: false },
    params: PostIdParams,
    query: PageQuery.extend(AuthorsQuery),
    status: 200,
    response: Thread,
    publicCache: true,
    errors: ['not_found'],
    mcp: { title: 'Read a thread', toolset: 'posts' },
  }),
};
