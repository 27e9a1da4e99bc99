import type { OutboxEvent } from '../domain/events.js';
import type { MessageRecord } from '../domain/social.js';
import { entities } from './entities.js';
import { putTransactItem } from './items.js';
import { outboxItem } from './outbox.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import { transact, type TransactItem } from './transact.js';
import { RECIPIENT_SIDE_INDEX } from './conversation-send.js';
import { ConversationChanged } from './conversations.js';

/**
 * The message, both sides' conversation items (conversationSendItems) and its message.created
 * event: one transaction, so the inbox is true at once. The recipient's side refused (it changed
 * since the send read it): ConversationChanged, and the send reads again.
 */
export async function sendMessage(
  message: MessageRecord,
  events: OutboxEvent[],
  conversation: readonly TransactItem[],
): Promise<void> {
  await transact([...conversation, putTransactItem(entities.message, message), ...events.map(outboxItem)], (index) =>
    index === RECIPIENT_SIDE_INDEX ? new ConversationChanged() : new Error(`send: item ${index} refused`),
  );
}

/** The conversation between two profiles (both directions), newest first. */
export function listConversation(
  profileId: string,
  otherProfileId: string,
  request: PageRequest,
): Promise<Page<MessageRecord>> {
  return pathPage(
    entities.message,
    'conversation',
    { sender_profile_id: profileId, recipient_profile_id: otherProfileId },
    request,
    { order: 'newest_first' },
  );
}
