import type { ConversationRecord } from '../../domain/conversations.js';
import type { ProfileRecord } from '../../domain/entities.js';
import type { MessageRecord } from '../../domain/social.js';
import { Conversation } from '../contract/schemas/conversations.js';
import { declaredWith } from './declared.js';
import { presentMessage } from './messages.js';
import { presentProfile } from './profiles.js';

/**
 * One side's conversation item in the API's Conversation shape, with the other profile (or, once
 * it was erased, its id read as deleted) and the last message it names: the lists, accept, and the
 * event log's `message.created` and `conversation.read` data all present it here.
 */
export const presentConversation = (
  c: ConversationRecord,
  other: ProfileRecord | undefined,
  lastMessage: MessageRecord,
) =>
  declaredWith(Conversation, c, {
    with: other ? presentProfile(other) : { id: c.other_profile_id, deleted: true as const },
    last_message: presentMessage(lastMessage),
    other_read_up_to: c.other_read_up_to ?? null,
  });
