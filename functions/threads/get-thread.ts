import { authoredBy } from '../../shared/domain/disclosure.js';
import { isVisibleTo } from '../../shared/domain/posts.js';
import { ancestorSlots, visibleReplies } from '../../shared/domain/threads.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { presentThread } from '../../shared/http/present/threads.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import { readThread } from '../../shared/store/threads.js';
import { routes } from '../../shared/http/contract/routes/threads.js';

const read = ({ params, query, viewerId }: PrefetchRequest<typeof routes.getThread>, reads: ReadBatch) =>
  readThread(params.post_id, viewerId, query, reads);

/**
 * Public. The whole page is read ahead, beside authentication: the post (in the credential's
 * BatchGetItem) and its replies' page, then its ancestors and the viewer's likes in one more
 * BatchGetItem. With a credential and X-Profile-Id: viewer_reaction, the viewer's blocks and mutes
 * (an ancestor by a hidden author is a placeholder, a reply by one is left out, a post by a
 * profile blocked either way is 404), and the author reads their own draft or removed post.
 */
export const handler = httpHandler(
  routes.getThread,
  async ({ query, auth, prefetched, viewer: filter }) => {
    const viewer = auth.actingProfile;
    const thread = await prefetched;
    // A block either way makes the post unreadable; a mute only leaves its author out of the chain and the replies.
    if (!thread.post || !isVisibleTo(thread.post.post, viewer?.id) || filter.isBlockedWith(thread.post.post.profile_id))
      throw notFound('Post');
    // The likes were read for the claimed viewer: they count only once that profile is the acting one.
    const liked = viewer ? thread.liked : new Set<string>();
    const { post, author } = thread.post;
    return presentThread(
      ancestorSlots(post.ancestor_ids, thread.ancestors, filter),
      { post, author: post.profile_id === viewer?.id ? viewer : author },
      {
        items: visibleReplies(thread.replies.items, filter).filter(({ post }) => authoredBy(query.authors, post)),
        next_cursor: thread.replies.next_cursor,
      },
      liked,
    );
  },
  { prefetch: read },
);
