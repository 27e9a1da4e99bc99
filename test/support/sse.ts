/** A Server-Sent Events reader for the tests: the messages of one connection, as the client reads them. */
import { inject } from 'vitest';

export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The body of an answer that is no stream (an error envelope). */
  errorBody?: { ok: boolean; error_code?: string };
  /** The next message (comments skipped); undefined once the stream ended. */
  next(): Promise<SseMessage | undefined>;
  /** Comment lines seen so far (heartbeats). */
  comments: string[];
  close(): void;
}

export interface SseOptions {
  token?: string;
  profileId?: string;
  lastEventId?: string;
  baseUrl?: string;
}

/** Opens GET `path` as an event stream. */
export async function openStream(path: string, options: SseOptions = {}): Promise<SseConnection> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.profileId) headers['x-profile-id'] = options.profileId;
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(`${options.baseUrl ?? inject('baseUrl')}${path}`, {
    headers,
    signal: controller.signal,
  });
  const comments: string[] = [];
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const errorBody = (await response.json()) as { ok: boolean; error_code?: string };
    return {
      status: response.status,
      headers: response.headers,
      errorBody,
      next: async () => undefined,
      comments,
      close: () => undefined,
    };
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<SseMessage | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const message: SseMessage = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line);
          else if (line.startsWith('id: ')) message.id = line.slice(4);
          else if (line.startsWith('event: ')) message.event = line.slice(7);
          else if (line.startsWith('data: ')) message.data += line.slice(6);
        }
        if (message.data) return message;
        continue;
      }
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return undefined;
      buffer += chunk.value;
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    next,
    comments,
    close: () => controller.abort(),
  };
}
