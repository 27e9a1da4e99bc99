import { presentEvent } from '../../shared/http/present/live.js';
import { routes } from '../../shared/http/contract/routes/live.js';
import { httpHandler } from '../../shared/http/handler.js';
import { checkedCursor, readOrWait } from '../../shared/live/read.js';
import { pauseEventWake } from '../../shared/ports/aws/pause-event-wake.js';
import type { EventWake } from '../../shared/ports/event-wake.js';

/**
 * The acting profile's events after `after`, oldest first; with `wait`, an empty answer is held
 * until an event comes (woken by the local runtime's log writer; in Lambda by looking again each
 * second). `next_cursor` is where the next request starts: the last event looked at, or `after`.
 */
export const handler = httpHandler(
  routes.listEvents,
  async ({ query, auth, ports }) => {
    const profileId = auth.actingProfile.id;
    const after = query.after === undefined ? undefined : await checkedCursor(profileId, query.after);
    const read = await readOrWait(
      { profileId, after, types: query.types, limit: query.limit },
      ports.wake,
      query.wait * 1000,
    );
    return { items: read.events.map(presentEvent), next_cursor: read.lastSeen ?? after ?? null };
  },
  { ports: (): { wake: EventWake } => ({ wake: pauseEventWake }) },
);
