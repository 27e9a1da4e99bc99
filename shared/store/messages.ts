import type { OutboxEvent } from '../domain/events.js';
import type { MessageRecord } from '../domain/social.js';
import { entities } from './entities.js';
import { putTransactItem } from './items.js';
import { outboxItem } from './outbox.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import { transact } from './transact.js';

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
  return pathPage(
    entities.message,
    'conversation',
    { sender_profile_id: profileId, recipient_profile_id: otherProfileId },
    request,
    { order: 'newest_first' },
  );
}
