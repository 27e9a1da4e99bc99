/**
 * The `content_removed` notice of a moderator's removal, to the post's or comment's author. The
 * content is read back (consistently) rather than trusted from the resolution: a resolution whose
 * content its author had removed meanwhile changed nothing, and notifies nobody.
 */
import type { NotificationDraft } from '../domain/notifications.js';
import { getComment } from '../store/comments.js';
import { getPost } from '../store/posts.js';
import type { ContentRemoval } from './moderation-sources.js';

const byModeration = (item: { status: string; removed_by: string | null }) =>
  item.status === 'removed' && item.removed_by === 'moderation';

/** The notice of the removal, undefined when the content is gone or was not removed by moderation. */
export async function contentRemovedDraft(removal: ContentRemoval): Promise<NotificationDraft | undefined> {
  const base = {
    // A post or comment is removed by moderation once (a removed one cannot be reported again).
    source: `removed:${removal.subject_type}:${removal.subject_id}`,
    actor_id: null,
    reason: 'content_removed' as const,
    subject_type: removal.subject_type,
    subject_id: removal.subject_id,
    at: removal.at,
  };
  if (removal.subject_type === 'post') {
    const post = await getPost(removal.subject_id, true);
    return post && byModeration(post)
      ? { ...base, recipient_id: post.profile_id, post_id: post.id, comment_id: null }
      : undefined;
  }
  const comment = await getComment(removal.subject_id, true);
  return comment && byModeration(comment)
    ? { ...base, recipient_id: comment.profile_id, post_id: comment.post_id, comment_id: comment.id }
    : undefined;
}
