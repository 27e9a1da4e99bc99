import * as z from 'zod';
import { ALLOW_MESSAGES_FROM, CONVERSATION_BOXES } from '../../../domain/conversations.js';
import { PageQuery, Timestamp, Uuid } from './common.js';
import { Message } from './messages.js';
import { Profile } from './profiles.js';

const Count = z.number().int().min(0);

export const DeletedProfile = z
  .object({
    id: Uuid,
    deleted: z.literal(true),
  })
  .meta({
    id: 'DeletedProfile',
    description:
      'The other side of a conversation whose profile was erased: only its id stays. Its messages are gone; those the caller wrote stay.',
  });

export const Conversation = z
  .object({
    id: Uuid.meta({ description: 'The same for both sides: derived from the two profile ids.' }),
    with: z.union([Profile, DeletedProfile]).meta({
      description: 'The other profile, or `{ id, deleted: true }` once it was erased (account or profile deletion).',
    }),
    last_message: Message,
    unread_count: Count.meta({ description: "Messages from the other side after the caller's read mark." }),
    other_read_up_to: Uuid.nullable().meta({
      description: 'The id of the last message the other side has read, or null.',
    }),
    updated_at: Timestamp.meta({ description: 'The last message’s time: the lists are newest first by it.' }),
  })
  .meta({ id: 'Conversation' });

export const ListConversationsQuery = PageQuery.extend({
  box: z
    .enum(CONVERSATION_BOXES)
    .default('inbox')
    .meta({ description: '`requests`: first messages from profiles you do not follow, until accepted or replied to.' }),
});

export const ConversationParams = z.strictObject({ conversation_id: Uuid });

export const ConversationUnreadCount = z
  .object({
    count: Count.meta({ description: "Unread messages in the inbox's conversations." }),
    requests: Count.meta({ description: 'Conversations waiting in requests.' }),
  })
  .meta({ id: 'ConversationUnreadCount' });

export const MarkConversationReadBody = z.strictObject({
  up_to: Uuid.optional().meta({ description: 'A message of the conversation; default: its last message.' }),
});

export const MarkConversationReadResult = z.object({ unread_count: Count });

export const MessageSettings = z
  .object({ allow_messages_from: z.enum(ALLOW_MESSAGES_FROM) })
  .meta({ id: 'MessageSettings' });

export const MessageSettingsBody = z.strictObject({ allow_messages_from: z.enum(ALLOW_MESSAGES_FROM) });
