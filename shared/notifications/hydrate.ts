/**
 * A page of notifications with what they show: their posts, comments and actors, read in one
 * BatchGetItem (store/notification-subjects.ts). A post or comment no longer readable (removed, a
 * draft again) shows as null; a profile that is gone is left out of the actors. A
 * `content_removed` notice shows its removed post or comment as its recipient, the author, reads
 * it (with `removed_by`).
 */
import type { ProfileRecord } from '../domain/entities.js';
import type { NotificationRecord } from '../domain/notifications.js';
import type { CommentRecord, PostRecord } from '../domain/posts.js';
import type { ViewerFilter } from '../domain/safety.js';
import { readNotificationSubjects } from '../store/notification-subjects.js';

export interface NotificationView {
  notification: NotificationRecord;
  post: PostRecord | null;
  comment: CommentRecord | null;
  actors: ProfileRecord[];
}

export async function hydrateNotifications(notifications: readonly NotificationRecord[]): Promise<NotificationView[]> {
  const subjects = await readNotificationSubjects(notifications);
  return notifications.map((n) => {
    const post = n.post_id ? subjects.post(n.post_id) : undefined;
    const comment = n.comment_id ? subjects.comment(n.comment_id) : undefined;
    const shown = (item: PostRecord | CommentRecord | undefined) =>
      item?.status === 'published' || (n.reason === 'content_removed' && item?.profile_id === n.recipient_id);
    return {
      notification: n,
      post: post && shown(post) ? post : null,
      comment: comment && shown(comment) ? comment : null,
      actors: n.actor_ids.flatMap((id) => subjects.profile(id) ?? []),
    };
  });
}

/**
 * What the recipient's blocks and mutes leave of a page, as they stand now (also for what was
 * written before them): a hidden profile leaves the actors, and a notification with no other
 * actor leaves the page. A moderation notice has no actors and always stays.
 */
export const visibleToRecipient = <N extends NotificationRecord>(page: readonly N[], viewer: ViewerFilter): N[] =>
  page.flatMap((n) => {
    const actorIds = n.actor_ids.filter((id) => !viewer.hidesAuthor(id));
    return actorIds.length > 0 || n.actor_ids.length === 0 ? [{ ...n, actor_ids: actorIds }] : [];
  });
