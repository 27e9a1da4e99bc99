/**
 * A page of notifications with what they show: their posts, comments and actors, read in one
 * BatchGetItem. A post or comment no longer readable (removed, a draft again) shows as null; a
 * profile that is gone is left out of the actors. A `content_removed` notice shows its removed
 * post or comment as its recipient, the author, reads it (with `removed_by`).
 */
import type { ProfileRecord } from '../domain/entities.js';
import type { NotificationRecord } from '../domain/notifications.js';
import type { CommentRecord, PostRecord } from '../domain/posts.js';
import { batchGet, keyId } from '../store/batch.js';
import { entities } from '../store/entities.js';
import { recordOf } from '../store/items.js';
import { keys } from '../store/keys.js';

export interface NotificationView {
  notification: NotificationRecord;
  post: PostRecord | null;
  comment: CommentRecord | null;
  actors: ProfileRecord[];
}

export async function hydrateNotifications(notifications: readonly NotificationRecord[]): Promise<NotificationView[]> {
  const wanted = notifications.flatMap((n) => [
    ...(n.post_id ? [keys.post(n.post_id)] : []),
    ...(n.comment_id ? [keys.comment(n.comment_id)] : []),
    ...n.actor_ids.map((id) => keys.profile(id)),
  ]);
  const found = wanted.length > 0 ? await batchGet(wanted) : new Map<string, Record<string, unknown>>();
  const read = <R>(layout: Parameters<typeof recordOf<R>>[0], key: { pk: string; sk: string }): R | undefined => {
    const item = found.get(keyId(key));
    return item ? recordOf(layout, item) : undefined;
  };
  return notifications.map((n) => {
    const post = n.post_id ? read<PostRecord>(entities.post, keys.post(n.post_id)) : undefined;
    const comment = n.comment_id ? read<CommentRecord>(entities.comment, keys.comment(n.comment_id)) : undefined;
    const shown = (item: PostRecord | CommentRecord | undefined) =>
      item?.status === 'published' || (n.reason === 'content_removed' && item?.profile_id === n.recipient_id);
    return {
      notification: n,
      post: post && shown(post) ? post : null,
      comment: comment && shown(comment) ? comment : null,
      actors: n.actor_ids.flatMap((id) => read<ProfileRecord>(entities.profile, keys.profile(id)) ?? []),
    };
  });
}
