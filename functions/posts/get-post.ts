import { isVisibleTo } from '../../shared/domain/posts.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { getPostWithReaction } from '../../shared/store/posts.js';
import { getProfile } from '../../shared/store/profiles.js';
import { routes } from './routes.js';

/** Public. With a credential and X-Profile-Id: viewer_reaction, and the author sees their drafts and removed posts. */
export const handler = httpHandler(routes.getPost, async ({ params, auth }) => {
  const viewerId = auth.actingProfile?.id;
  const { post, liked } = await getPostWithReaction(params.post_id, viewerId);
  if (!post || !isVisibleTo(post, viewerId)) throw notFound('Post');
  const author = post.profile_id === viewerId ? auth.actingProfile : await getProfile(post.profile_id);
  if (!author) throw notFound('Post');
  return presentPostWithProfile(post, author, liked);
});
