import { disclosureOf } from '../../shared/domain/disclosure.js';
import { newComment } from '../../shared/domain/posts.js';
import { ApiError, notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentComment } from '../../shared/http/present/comments.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { createComment, getComment } from '../../shared/store/comments.js';
import { getProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/comments.js';
import { liveProfile, livePost, readPostWithCard } from '../../shared/safety/suspension.js';
import { checkThreadReply } from '../../shared/safety/thread.js';

/**
 * A top-level comment or a reply to a comment of the same post (any depth). Refused across a block
 * with the post's, the thread root's or the parent comment's author, or by the root's reply policy.
 * A post or parent comment by a suspended profile is not found, as its reads are.
 */
export const handler = httpHandler(routes.createComment, async ({ params, body, auth, now, viewer, reads }) => {
  const author = auth.actingProfile;
  const [read, parent] = await Promise.all([
    readPostWithCard(params.post_id, reads),
    body.parent_comment_id ? getComment(body.parent_comment_id, false, reads) : Promise.resolve(undefined),
  ]);
  const post = livePost(read);
  if (!post) throw notFound('Post');
  // The parent's author is known only once the parent is read: one more read, for nested comments only.
  if (body.parent_comment_id && !(parent && liveProfile(await getProfile(parent.profile_id, reads)))) {
    throw new ApiError('not_found', {
      message: 'Parent comment not found.',
      hint: 'parent_comment_id must name an existing comment of this post.',
    });
  }
  if (parent && parent.post_id !== post.id) {
    throw new ApiError('invalid_request', {
      message: 'Invalid body.parent_comment_id.',
      hint: 'body.parent_comment_id names a comment of another post; reply only to comments of the post in the path.',
    });
  }
  await checkThreadReply(viewer, author, post, parent ? [parent.profile_id] : []);
  const comment = newComment(now, author, post, parent, body.body, disclosureOf(author, auth.principal));
  const counted = { ...post, comments_count: post.comments_count + 1 };
  await createComment(comment, socialEvents.commentCreated(comment, counted, parent, author));
  return { comment: presentComment(comment), profile: presentProfile(author) };
});
