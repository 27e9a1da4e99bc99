/**
 * Which changes of the table stream make events of the per-profile logs (API.md "Live"): a
 * notification created or grown, a conversation item moved by a message or by the other side's
 * read mark (each side's item is that side's view: its unread count and read marks after the
 * change), a post entering a follower's home feed (not the author's own entry). Each is read off
 * its record here; who gets an event and what it says is decided in from-stream.ts.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import type { NotificationRecord } from '../domain/notifications.js';
import type { ConversationRecord } from '../domain/conversations.js';
import { decodeImage, type Decoded } from '../pipeline/decode.js';
import { entityTags, keys } from '../store/keys.js';

/** What one change asks of the logs. `since`: when it was made (a little before, for clocks). */
export type LiveChange =
  | {
      kind: 'notification';
      type: 'notification.created' | 'notification.updated';
      notification: NotificationRecord;
      since: string;
    }
  | { kind: 'conversation'; change: LoggedConversationChange; conversation: ConversationRecord; since: string }
  | { kind: 'feed'; reader_id: string; post_id: string; published_at: string; since: string };

/** Clock margin below a record's approximate creation time (whole seconds on the stream). */
const CLOCK_MARGIN_MS = 2000;

const Notification = z.looseObject({
  id: z.string(),
  recipient_id: z.string(),
  reason: z.string(),
  actor_ids: z.array(z.string()),
  seen: z.boolean(),
  updated_at: z.string(),
});
/** The conversation changes that make events: its owner got or sent a message, or the other side read. */
export const LOGGED_CONVERSATION_CHANGES = ['message', 'read_by_other'] as const;
type LoggedConversationChange = (typeof LOGGED_CONVERSATION_CHANGES)[number];

const Conversation = z.looseObject({
  id: z.string(),
  profile_id: z.string(),
  other_profile_id: z.string(),
  box: z.string(),
  hidden: z.boolean(),
  last_message_id: z.string(),
  last_message_at: z.string(),
  unread_count: z.number(),
  updated_at: z.string(),
  last_change: z.enum(LOGGED_CONVERSATION_CHANGES),
});
/**
 * An inbox entry: the post and when it was published, and `own` on the author's own entry. Who
 * wrote the post is the post's to say, when the event is read.
 */
const FeedEntry = z.object({
  pk: z.string(),
  post_id: z.string(),
  published_at: z.string(),
  own: z.optional(z.boolean()),
});

type Image = Record<string, { S?: string; BOOL?: boolean } | undefined>;
const stringOf = (image: Image | undefined, name: string) => image?.[name]?.S;

function sinceOf(record: DynamoDBRecord): string {
  const seconds = record.dynamodb?.ApproximateCreationDateTime;
  const at = seconds === undefined ? Date.now() : seconds * 1000;
  return new Date(at - CLOCK_MARGIN_MS).toISOString();
}

const mapped = <T, U>(decoded: Decoded<T>, to: (record: T) => U): Decoded<U> =>
  decoded.ok ? { ok: true, record: to(decoded.record) } : decoded;

/** The change a record asks the logs for; undefined when it asks for none. */
export function liveChangeOf(record: DynamoDBRecord): Decoded<LiveChange> | undefined {
  const image = record.dynamodb?.NewImage as Image | undefined;
  const entity = stringOf(image, 'entity');
  const since = sinceOf(record);
  if (entity === entityTags.notification) {
    if (record.eventName === 'INSERT')
      return mapped(decodeImage(Notification, image), (n) => ({
        kind: 'notification' as const,
        type: 'notification.created' as const,
        notification: n as unknown as NotificationRecord,
        since,
      }));
    // A grouped notification grew while unseen (a new like or follow moved updated_at); being seen moves nothing.
    const old = record.dynamodb?.OldImage as Image | undefined;
    const grew = stringOf(old, 'updated_at') !== stringOf(image, 'updated_at') && image?.seen?.BOOL === false;
    if (record.eventName !== 'MODIFY' || !grew) return undefined;
    return mapped(decodeImage(Notification, image), (n) => ({
      kind: 'notification' as const,
      type: 'notification.updated' as const,
      notification: n as unknown as NotificationRecord,
      since,
    }));
  }
  if (entity === entityTags.conversation) {
    const change = stringOf(image, 'last_change');
    if (!(LOGGED_CONVERSATION_CHANGES as readonly (string | undefined)[]).includes(change)) return undefined;
    return mapped(decodeImage(Conversation, image), (c) => ({
      kind: 'conversation' as const,
      change: c.last_change,
      conversation: c as unknown as ConversationRecord,
      since,
    }));
  }
  if (record.eventName !== 'INSERT') return undefined;
  if (entity !== entityTags.feedEntry) return undefined;
  const entry = decodeImage(FeedEntry, image);
  // The author's own entry (its feed shows its own posts) is no news to it.
  if (entry.ok && entry.record.own) return undefined;
  return mapped(entry, (e) => ({
    kind: 'feed' as const,
    reader_id: e.pk.slice(keys.feedPrefixes.inbox.length),
    post_id: e.post_id,
    published_at: e.published_at,
    since,
  }));
}
