/**
 * Stream records of conversation items, as a send or a read mark leaves them, for running the
 * event-log writer in process (test/integration/live-log.test.ts, `npm run bench:live`). Built
 * rather than written: a local server's stream poller logs the table's own conversation items, and
 * these callers must be the only writers of the logs they read. The profiles and messages the
 * writer reads must be in the table (the poller makes no event of them).
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { ConversationRecord } from '../../shared/domain/conversations.js';
import type { FeedEntryRecord } from '../../shared/domain/feed.js';
import { conversationId, newMessage, type MessageRecord } from '../../shared/domain/social.js';
import { entities } from '../../shared/store/entities.js';
import { itemOf, putItem } from '../../shared/store/items.js';

const via = { kind: 'api_key' } as const;
let sequence = 0;

/** The record of `owner`'s conversation item after `message` and the change named. */
export function conversationRecord(
  owner: string,
  message: MessageRecord,
  fields: Pick<ConversationRecord, 'unread_count' | 'last_change' | 'other_read_up_to'>,
): DynamoDBRecord {
  const other = owner === message.sender_profile_id ? message.recipient_profile_id : message.sender_profile_id;
  const item: ConversationRecord = {
    id: conversationId(owner, other),
    profile_id: owner,
    other_profile_id: other,
    box: 'inbox',
    hidden: false,
    last_message_id: message.id,
    last_message_at: message.created_at,
    updated_at: message.created_at,
    ...fields,
  };
  return {
    eventName: 'MODIFY',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      SequenceNumber: String(++sequence).padStart(21, '0'),
      NewImage: marshall(itemOf(entities.conversation, item), { removeUndefinedValues: true }) as never,
    },
  };
}

/** A message stored, and the records of its send: the recipient's (`unread` after it), then the sender's. */
export async function storedSend(
  from: string,
  to: string,
  body: string,
  unread: number,
): Promise<{ message: MessageRecord; records: [DynamoDBRecord, DynamoDBRecord] }> {
  const message = newMessage(new Date(), from, to, body, { automated: false, via });
  await putItem(entities.message, message);
  return {
    message,
    records: [
      conversationRecord(to, message, { unread_count: unread, last_change: 'message' }),
      conversationRecord(from, message, { unread_count: 0, last_change: 'message' }),
    ],
  };
}

/**
 * The record of a post's entry put into `readerId`'s inbox (an INSERT): the image the fan-out's
 * writer leaves, built as `entities.feedEntry` lays it out (`own` on the author's own entry).
 */
export function feedEntryRecord(readerId: string, entry: FeedEntryRecord): DynamoDBRecord {
  return {
    eventName: 'INSERT',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      SequenceNumber: String(++sequence).padStart(21, '0'),
      NewImage: marshall(itemOf(entities.feedEntry(readerId), entry), { removeUndefinedValues: true }) as never,
    },
  };
}
