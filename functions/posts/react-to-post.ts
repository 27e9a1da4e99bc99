import { newReaction } from '../../shared/domain/posts.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { keys } from '../../shared/store/keys.js';
import { getPost } from '../../shared/store/posts.js';
import { postReactionTarget, setReaction } from '../../shared/store/reactions.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import { routes } from '../../shared/http/contract/routes/posts.js';

/** The post, read in the credential's BatchGetItem: its count before this change. */
const readPost = ({ params }: PrefetchRequest<typeof routes.reactToPost>, reads: ReadBatch) =>
  getPost(params.post_id, true, reads);

/**
 * Sets or removes the acting profile's like; idempotent; the stored likes_count is exact under
 * concurrency (one conditional transaction). The answer's count is the one read ahead plus this
 * change, so a like costs the transaction and no read after it.
 */
export const handler = httpHandler(
  routes.reactToPost,
  async ({ params, body, auth, now, prefetched }) => {
    const viewer = auth.actingProfile;
    const outcome = await setReaction(
      postReactionTarget(params.post_id),
      keys.postReaction(params.post_id, viewer.id),
      newReaction(now, viewer.id, body.reaction_type),
      body.active,
    );
    if (outcome === 'target_missing') throw notFound('Post');
    const before = await prefetched;
    if (before?.status === 'published') {
      const delta = outcome === 'changed' ? (body.active ? 1 : -1) : 0;
      return {
        post_id: before.id,
        likes_count: Math.max(0, before.likes_count + delta),
        viewer_reaction: body.active ? body.reaction_type : null,
      };
    }
    // Published after it was read ahead: read it again, with this change in.
    const post = await getPost(params.post_id, true);
    if (!post || post.status !== 'published') throw notFound('Post');
    return {
      post_id: post.id,
      likes_count: post.likes_count,
      viewer_reaction: body.active ? body.reaction_type : null,
    };
  },
  { prefetch: readPost },
);
