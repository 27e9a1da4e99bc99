/**
 * What a page of notifications shows, read in one BatchGetItem: their posts, comments and actors,
 * by id (what is gone is absent). Which of them a notification may show is the caller's rule
 * (notifications/hydrate.ts).
 */
import type { ProfileRecord } from '../domain/entities.js';
import type { NotificationRecord } from '../domain/notifications.js';
import type { CommentRecord, PostRecord } from '../domain/posts.js';
import { batchGet, keyId } from './batch.js';
import { entities } from './entities.js';
import { recordOf } from './items.js';
import { keys } from './keys.js';

export interface NotificationSubjects {
  post(id: string): PostRecord | undefined;
  comment(id: string): CommentRecord | undefined;
  profile(id: string): ProfileRecord | undefined;
}

export async function readNotificationSubjects(
  notifications: readonly Pick<NotificationRecord, 'post_id' | 'comment_id' | 'actor_ids'>[],
): Promise<NotificationSubjects> {
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
  return {
    post: (id) => read<PostRecord>(entities.post, keys.post(id)),
    comment: (id) => read<CommentRecord>(entities.comment, keys.comment(id)),
    profile: (id) => read<ProfileRecord>(entities.profile, keys.profile(id)),
  };
}
