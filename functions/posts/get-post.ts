import { isVisibleTo } from '../../shared/domain/posts.js';
import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { getPostWithReaction } from '../../shared/store/posts.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import { routes } from '../../shared/http/contract/routes/posts.js';

const readPost = ({ params, viewerId }: PrefetchRequest<typeof routes.getPost>, reads: ReadBatch) =>
  getPostWithReaction(params.post_id, viewerId, reads);

/**
 * Public. With a credential and X-Profile-Id: viewer_reaction, and the author sees their drafts and
 * removed posts. The post (with its author's card) and the viewer's reaction are read ahead, in the
 * same BatchGetItem as the credential and the acting profile. Across a block the post is not found.
 */
export const handler = httpHandler(
  routes.getPost,
  async ({ auth, prefetched, viewer }) => {
    const viewerId = auth.actingProfile?.id;
    const { post, author: card, liked } = await prefetched;
    if (!post || !isVisibleTo(post, viewerId) || isSuspended(card) || viewer.isBlockedWith(post.profile_id)) {
      throw notFound('Post');
    }
    // The author reading their own post sees their profile as it is now, not as the card has it.
    const author = (post.profile_id === viewerId ? auth.actingProfile : undefined) ?? card;
    // The reaction was read for the claimed viewer: it counts only once that profile is the acting one.
    return presentPostWithProfile(post, author, viewerId !== undefined && liked);
  },
  { prefetch: readPost },
);
