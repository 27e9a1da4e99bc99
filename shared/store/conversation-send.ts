/**
 * What a message send adds for the conversations: the read of the recipient's side, and the two
 * conversation updates that join the send's own transaction (store/messages.ts `sendMessage`).
 */
import {
  DEFAULT_ALLOW_MESSAGES_FROM,
  type AllowMessagesFrom,
  type ConversationBox,
  type ConversationRecord,
} from '../domain/conversations.js';
import type { ProfileRecord } from '../domain/entities.js';
import { conversationId, type MessageRecord } from '../domain/social.js';
import { entities } from './entities.js';
import { updateRequest, when } from './expressions.js';
import { getItem, pathAttributes } from './items.js';
import { keys } from './keys.js';
import { getProfile } from './profiles.js';
import { ReadBatch } from './read-batch.js';
import type { TransactItem } from './transact.js';

const { conversation: layout, messageSettings: settingsLayout } = entities;

/** What a send needs of the recipient's side. */
export interface SendContext {
  recipient: ProfileRecord | undefined;
  allowMessagesFrom: AllowMessagesFrom;
  recipientFollowsSender: boolean;
  /** The recipient's item of the conversation, when it has one. */
  recipientConversation: ConversationRecord | undefined;
}

/**
 * The recipient's profile, its message setting, whether it follows the sender and its item of the
 * conversation: four keys in ONE strongly consistent BatchGetItem, the round trip the send made
 * for the profile alone before conversations.
 */
export async function readSendContext(senderId: string, recipientId: string): Promise<SendContext> {
  const reads = new ReadBatch();
  const [recipient, settings, follow, recipientConversation] = await Promise.all([
    getProfile(recipientId, reads),
    getItem(settingsLayout, keys.messageSettings(recipientId), { reads }),
    reads.get(keys.follow(recipientId, senderId)),
    getItem(layout, keys.conversationItem(recipientId, conversationId(senderId, recipientId)), { reads }),
  ]);
  return {
    recipient,
    allowMessagesFrom: settings?.allow_messages_from ?? DEFAULT_ALLOW_MESSAGES_FROM,
    recipientFollowsSender: follow !== undefined,
    recipientConversation,
  };
}

/** One side's item as a message leaves it: on the box's list at the message's time, not hidden. */
function sideOfSend(
  message: MessageRecord,
  owner: string,
  other: string,
  box: ConversationBox,
  unread: 0 | 1,
  guard: Parameters<typeof updateRequest>[0]['when'],
): TransactItem {
  const placed = {
    id: conversationId(owner, other),
    profile_id: owner,
    box,
    hidden: false,
    updated_at: message.created_at,
  };
  return {
    Update: updateRequest({
      key: keys.conversationItem(owner, placed.id),
      set: {
        entity: layout.entity,
        ...placed,
        ...pathAttributes(layout.paths, placed),
        other_profile_id: other,
        last_message_id: message.id,
        last_message_at: message.created_at,
        // Each side's image is that side's `message.created` (shared/live/sources.ts).
        last_change: 'message',
      },
      // ADD creates the count at 0 or 1: concurrent sends add up instead of overwriting.
      add: { unread_count: unread },
      when: guard,
    }),
  };
}

/**
 * The send's two conversation updates, first in its transaction: the sender's side in its inbox
 * (sending is accepting), and the recipient's in `box` with one more unread message, guarded by
 * what the send read of it (its box and last message then, or its absence). Every send of the
 * pair, either way, changes the recipient's last message, so the guard puts the pair's sends in
 * one order (each after the last message it read: messageTimeAfter) and a concurrent accept sends
 * the send back to read again (index 1 refused: ConversationChanged).
 */
export function conversationSendItems(
  message: MessageRecord,
  box: ConversationBox,
  recipientBefore: Pick<ConversationRecord, 'box' | 'last_message_id'> | undefined,
): TransactItem[] {
  const { sender_profile_id: sender, recipient_profile_id: recipient } = message;
  const unchanged = recipientBefore
    ? [when.is('box', recipientBefore.box), when.is('last_message_id', recipientBefore.last_message_id)]
    : when.absent();
  return [
    sideOfSend(message, sender, recipient, 'inbox', 0, undefined),
    sideOfSend(message, recipient, sender, box, 1, unchanged),
  ];
}

/** The index of the recipient's update among `conversationSendItems`: its refusal means "read again". */
export const RECIPIENT_SIDE_INDEX = 1;
