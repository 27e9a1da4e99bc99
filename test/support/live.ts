/** What the live tests share: messages as a source of events, and a stream read across reconnects. */
import { call, type CallOptions } from './api.js';
import { openStream } from './sse.js';

export interface Party {
  key: string;
  profile: { id: string };
}

/** Pairs whose recipient already follows its sender (so their messages reach its inbox, not its requests). */
const acquainted = new Set<string>();

/**
 * `to` follows `from` once, so that `from`'s messages land in `to`'s inbox and make events at once
 * (a stranger's first message waits in the requests, telling the recipient nothing).
 */
async function acquaint(from: Party, to: Party, baseUrl?: string): Promise<void> {
  const pair = `${baseUrl ?? ''}:${to.profile.id}:${from.profile.id}`;
  if (acquainted.has(pair)) return;
  const response = await call('POST', '/v1/profile-follows', {
    token: to.key,
    profileId: to.profile.id,
    body: { followed_profile_id: from.profile.id },
    ...(baseUrl ? { baseUrl } : {}),
  });
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`follow not made: ${response.status} ${JSON.stringify(response.body)}`);
  acquainted.add(pair);
}

/** `from` messages `to` (whom `to` follows); throws unless it is answered 201. */
export async function sendMessage(from: Party, to: Party, body: string, baseUrl?: string): Promise<void> {
  await acquaint(from, to, baseUrl);
  const options: CallOptions = {
    token: from.key,
    profileId: from.profile.id,
    body: { recipient_profile_id: to.profile.id, body },
    ...(baseUrl ? { baseUrl } : {}),
  };
  const response = await call('POST', '/v1/messages', options);
  if (response.status !== 201) throw new Error(`message not sent: ${response.status} ${JSON.stringify(response.body)}`);
}

export interface Received {
  id: string;
  type: string;
  body: string;
}

/**
 * Reads `party`'s stream after `after` until `take` says stop (it sees what this connection received) or
 * the stream ends; answers what was received and the last id, as a client that then disconnects.
 */
export async function readStream(
  party: Party,
  after: string | undefined,
  take: (received: readonly Received[]) => boolean,
  baseUrl?: string,
): Promise<{ received: Received[]; last: string | undefined }> {
  const stream = await openStream('/v1/stream?types=message.created', {
    token: party.key,
    profileId: party.profile.id,
    ...(after ? { lastEventId: after } : {}),
    ...(baseUrl ? { baseUrl } : {}),
  });
  if (stream.status !== 200) throw new Error(`stream refused: ${stream.status} ${JSON.stringify(stream.errorBody)}`);
  const received: Received[] = [];
  let last = after;
  try {
    for (;;) {
      const message = await stream.next();
      if (!message) break;
      const event = JSON.parse(message.data) as { id: string; type: string; data: { message: { body: string } } };
      if (message.id !== event.id) throw new Error(`SSE id ${message.id} is not the event's id ${event.id}`);
      const one = { id: event.id, type: event.type, body: event.data.message.body };
      received.push(one);
      last = one.id;
      if (!take(received)) break;
    }
  } finally {
    stream.close();
  }
  return { received, last };
}
