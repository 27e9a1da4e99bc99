/**
 * What of a notification its recipient's blocks and mutes let it see, as they stand now: a
 * hidden profile leaves the actors, and a notification with no other actor is not shown. A
 * moderation notice has no actors and is always shown. The list and the event log apply it alike.
 */
import type { NotificationRecord } from '../domain/notifications.js';
import type { ViewerFilter } from '../domain/safety.js';

export function shownNotifications<N extends NotificationRecord>(
  notifications: readonly N[],
  viewer: ViewerFilter,
): N[] {
  return notifications.flatMap((n) => {
    const actorIds = n.actor_ids.filter((id) => !viewer.hidesAuthor(id));
    return actorIds.length > 0 || n.actor_ids.length === 0 ? [{ ...n, actor_ids: actorIds }] : [];
  });
}
