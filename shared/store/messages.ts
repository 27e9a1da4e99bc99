import type { OutboxEvent } from '../domain/events.js';
import { conversationPair, type MessageRecord } from '../domain/social.js';
import { entities } from './entities.js';
import { putTransactItem, recordOf } from './items.js';
import { keys } from './keys.js';
import { outboxItem } from './outbox.js';
import { queryPage, type Page, type PageRequest } from './pagination.js';
import { transact } from './transact.js';

const conversationKey = (a: string, b: string) => keys.conversation(...conversationPair(a, b));

/** The message and its message.created event: one transaction. */
export async function sendMessage(message: MessageRecord, events: OutboxEvent[]): Promise<void> {
  await transact([putTransactItem(entities.message, message), ...events.map(outboxItem)]);
}

/** The conversation between two profiles (both directions), newest first. */
export function listConversation(
  profileId: string,
  otherProfileId: string,
  request: PageRequest,
): Promise<Page<MessageRecord>> {
  const pk = conversationKey(profileId, otherProfileId);
  return queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
      ExpressionAttributeValues: { ':pk': pk, ':msg': keys.messageSortKeyPrefix },
      ScanIndexForward: false,
    },
    { pk },
    request,
    (item) => recordOf(entities.message, item),
  );
}
