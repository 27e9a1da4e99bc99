/**
 * Blocks and mutes apply to the event log as they apply to the lists the events mirror, at read
 * time too: an event logged before a block or mute is left out once it stands, as the
 * notifications list leaves out such an actor.
 */
import type { LiveEvent } from './live-events.js';
import type { ViewerFilter } from './safety.js';

const idOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
    ? (value as { id: string }).id
    : undefined;

/** Whether the viewer (the log's profile) may still see the event under its blocks and mutes now. */
export function shownUnderSafety(event: LiveEvent, viewer: ViewerFilter): boolean {
  const { data } = event;
  if (event.type === 'notification.created' || event.type === 'notification.updated') {
    const actors = Array.isArray(data.actors) ? data.actors.map(idOf).filter((id) => id !== undefined) : [];
    return actors.length === 0 || actors.some((id) => !viewer.hidesAuthor(id));
  }
  if (event.type === 'message.created') {
    const message = data.message as { sender_profile_id?: unknown; recipient_profile_id?: unknown } | undefined;
    const other = [message?.sender_profile_id, message?.recipient_profile_id].find(
      (id): id is string => typeof id === 'string' && id !== event.profile_id,
    );
    return other === undefined || !viewer.isBlockedWith(other);
  }
  if (event.type === 'conversation.read') {
    const other = idOf((data.conversation as { with?: unknown } | undefined)?.with);
    return other === undefined || !viewer.isBlockedWith(other);
  }
  if (event.type === 'feed.post') {
    const author = idOf(data.profile);
    return author === undefined || !viewer.hidesAuthor(author);
  }
  return true;
}
