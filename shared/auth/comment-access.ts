import type { PostRecord, CommentRecord } from '../domain/posts.js';
import type { ViewerFilter } from '../domain/safety.js';
import { AppError, notFound } from '../errors.js';
import { getComment } from '../store/comments.js';
import { getProfile } from '../store/profiles.js';
import type { ReadBatch } from '../store/read-batch.js';
import { liveProfile, livePost, readPostWithCard } from '../safety/suspension.js';
import type { Principal } from './principal.js';
import { requireModerator } from './moderator.js';

/**
 * The comment and its post, as the acting profile may read them: the post published, neither
 * author suspended, no block with either, and a removed comment only by its author; else 404,
 * as the comment list answers. The comment is read consistently (it may be about to change).
 * `forDeletion`: the post's author reaches comments across a block with their authors, so that
 * clearing a blocked profile's comment off one's own post stays open.
 */
export async function readableComment(
  commentId: string,
  viewerId: string | undefined,
  viewer: ViewerFilter,
  reads: ReadBatch,
  forDeletion = false,
): Promise<{ comment: CommentRecord; post: PostRecord }> {
  const comment = await getComment(commentId, true, reads);
  if (!comment) throw notFound('Comment');
  const [read, author] = await Promise.all([
    readPostWithCard(comment.post_id, reads),
    getProfile(comment.profile_id, reads),
  ]);
  const post = livePost(read);
  const readable =
    post &&
    liveProfile(author) &&
    !viewer.isBlockedWith(post.profile_id) &&
    (!viewer.isBlockedWith(comment.profile_id) || (forDeletion && post.profile_id === viewerId)) &&
    (comment.status !== 'removed' || comment.profile_id === viewerId);
  if (!readable) throw notFound('Comment');
  return { comment, post };
}

/** Only the comment's author edits it: 403 to anyone else who can read it. */
export function requireCommentAuthor(comment: CommentRecord, actingProfileId: string): void {
  if (comment.profile_id === actingProfileId) return;
  throw new AppError('forbidden', {
    message: 'Only the author may edit a comment.',
    hint: "Send X-Profile-Id of the comment's author profile (profile_id of the comment).",
  });
}

/**
 * The comment's author, the post's author, or (with a session) a platform moderator may delete
 * it; anyone else is 403. The moderator's role is read only when neither author is acting.
 */
export async function requireCommentDeleter(
  comment: CommentRecord,
  post: PostRecord,
  actingProfileId: string,
  principal: Principal | undefined,
): Promise<void> {
  if (comment.profile_id === actingProfileId || post.profile_id === actingProfileId) return;
  if (principal?.kind === 'session') {
    await requireModerator(principal);
    return;
  }
  throw new AppError('forbidden', {
    message: "Only the comment's author, the post's author or a moderator may delete a comment.",
    hint: "Send X-Profile-Id of the comment's or the post's author profile.",
  });
}
