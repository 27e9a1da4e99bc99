import { useEffect, useState } from 'preact/hooks';
import type { LiveEvent } from '@social-network/sdk';
import { openLiveStream } from '../live-stream.js';
import { useLoad } from '../use-load.js';
import { ProblemNotice } from '../ui/problem.js';
import { webhooks } from '../webhooks-api.js';

/** What an event is about, in a line. */
function summary(event: LiveEvent): string {
  switch (event.type) {
    case 'message.created':
      return `Message: ${event.data.message.body}`;
    case 'feed.post':
      return `New post by @${event.data.profile.username}: ${event.data.post.body}`;
    case 'notification.created':
    case 'notification.updated':
      return `Notification: ${event.data.reason.replace(/_/g, ' ')}`;
    default:
      return event.type;
  }
}

/** One profile's events as they happen (notifications, messages, feed posts), newest first. */
export function LivePage({ workspaceId }: { workspaceId: string }) {
  const list = useLoad(() => webhooks.endpoints(workspaceId), [workspaceId]);
  const profiles = list.data?.available_profiles ?? [];
  const [profileId, setProfileId] = useState<string>();
  const [events, setEvents] = useState<LiveEvent[]>([]);
  const [state, setState] = useState<'connecting' | 'live' | 'failed'>('connecting');
  const chosen = profileId ?? profiles[0]?.id;

  useEffect(() => {
    if (!chosen) return;
    setEvents([]);
    const stream = openLiveStream(chosen, {
      event: (event) => setEvents((shown) => [event, ...shown].slice(0, 200)),
      state: setState,
    });
    return () => stream.close();
  }, [chosen]);

  return (
    <main id="main">
      <h1>Live</h1>
      <p>What happens to a profile, as it happens: notifications, messages and posts arriving in its feed.</p>
      <ProblemNotice problem={list.problem} title="Could not load the profiles." />
      {profiles.length > 0 ? (
        <label>
          Profile
          <select value={chosen} onChange={(e) => setProfileId((e.target as HTMLSelectElement).value)}>
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} (@{p.username})
              </option>
            ))}
          </select>
        </label>
      ) : list.data ? (
        <p class="notice empty">No profile yet: create one on the Profiles page.</p>
      ) : null}
      {chosen ? (
        <p class="hint" role="status">
          {state === 'live' ? 'Listening.' : state === 'connecting' ? 'Connecting…' : 'Not connected; trying again.'}
        </p>
      ) : null}
      {events.length > 0 ? (
        <ul class="cards" aria-label="Events">
          {events.map((event) => (
            <li key={event.id} class="card">
              <strong>{summary(event)}</strong>
              <p class="hint">
                {event.type} · {new Date(event.created_at).toLocaleTimeString()}
              </p>
            </li>
          ))}
        </ul>
      ) : chosen ? (
        <p class="notice empty">Nothing yet: events show here as they happen.</p>
      ) : null}
    </main>
  );
}
