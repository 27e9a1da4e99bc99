/**
 * The acting profile's events as they happen, for the Live page: an EventSource on GET /v1/stream
 * opened with a stream ticket (EventSource sends no header). A ticket opens one connection, so
 * when the connection ends a new ticket is fetched and the stream resumes after the last event
 * seen (`after=`): nothing is missed or shown twice.
 */
import { unwrap, type LiveEvent } from '@social-network/sdk';
import { api, apiBase } from './session.js';

const EVENT_TYPES = ['notification.created', 'notification.updated', 'message.created', 'feed.post'] as const;
const REOPEN_MS = 1000;

export interface LiveStream {
  close(): void;
}

export function openLiveStream(
  profileId: string,
  on: { event(event: LiveEvent): void; state(state: 'connecting' | 'live' | 'failed'): void },
): LiveStream {
  let source: EventSource | undefined;
  let last: string | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = async () => {
    on.state('connecting');
    try {
      const { ticket } = await unwrap(
        api.POST('/v1/stream-tickets', { params: { header: { 'x-profile-id': profileId } } }),
      );
      if (closed) return;
      const query = new URLSearchParams({ ticket, ...(last ? { after: last } : {}) });
      source = new EventSource(`${apiBase}/v1/stream?${query}`);
      source.onopen = () => on.state('live');
      for (const type of EVENT_TYPES)
        source.addEventListener(type, (message: MessageEvent<string>) => {
          last = message.lastEventId;
          on.event(JSON.parse(message.data) as LiveEvent);
        });
      source.onerror = () => {
        source?.close();
        if (!closed) timer = setTimeout(() => void open(), REOPEN_MS);
      };
    } catch {
      on.state('failed');
      if (!closed) timer = setTimeout(() => void open(), REOPEN_MS * 5);
    }
  };
  void open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      source?.close();
    },
  };
}
