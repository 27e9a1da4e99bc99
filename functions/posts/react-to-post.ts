import { newReaction } from '../../shared/domain/posts.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { keys } from '../../shared/store/keys.js';
import { getPost } from '../../shared/store/posts.js';
import { postReactionTarget, setReaction } from '../../shared/store/reactions.js';
import { routes } from './routes.js';

/** Sets or removes the acting profile's like; idempotent; likes_count is exact under concurrency. */
export const handler = httpHandler(routes.reactToPost, async ({ params, body, auth, now }) => {
  const viewer = auth.actingProfile!;
  const outcome = await setReaction(
    postReactionTarget(params.post_id),
    keys.postReaction(params.post_id, viewer.id),
    newReaction(now, viewer.id, body.reaction_type),
    body.active,
  );
  const post = outcome === 'target_missing' ? undefined : await getPost(params.post_id, true);
  if (!post || post.status !== 'published') throw notFound('Post');
  return { post_id: post.id, likes_count: post.likes_count, viewer_reaction: body.active ? body.reaction_type : null };
});
