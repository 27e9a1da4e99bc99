import type { PostRecord } from '../domain/posts.js';
import { AppError, notFound } from '../errors.js';
import { getPost } from '../store/posts.js';

/**
 * The post, when the acting profile is its author. Someone else's published post is 403
 * forbidden; someone else's draft or removed post does not exist for them (404). Editing a removed
 * post is 409 invalid_state.
 */
export async function authoredPost(
  postId: string,
  actingProfileId: string,
  action: 'edit' | 'remove',
): Promise<PostRecord> {
  const post = await getPost(postId, true);
  if (!post || (post.profile_id !== actingProfileId && post.status !== 'published')) throw notFound('Post');
  if (post.profile_id !== actingProfileId) {
    throw new AppError('forbidden', {
      message: `Only the author may ${action} a post.`,
      hint: "Send X-Profile-Id of the post's author profile (profile_id of the post).",
    });
  }
  if (action === 'edit' && post.status === 'removed') {
    throw new AppError('invalid_state', {
      message: 'A removed post cannot be edited.',
      hint: 'Create a new post instead.',
    });
  }
  return post;
}
