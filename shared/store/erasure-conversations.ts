/**
 * The other side of an erased profile's conversation (API.md: "Messages others wrote to it stay
 * theirs, in a conversation whose other side reads as deleted"): the other's conversation item
 * stays, pointed at the newest message its owner wrote, with nothing unread (the unread were the
 * erased side's) and its read mark on that message; with no message of its owner left, it goes.
 * Run after the erased side's messages went; a replay finds the same newest message.
 */
import type { ConversationRecord } from '../domain/conversations.js';
import type { MessageRecord } from '../domain/social.js';
import { batchWrite } from './batch.js';
import { conditionHeld } from './conditional.js';
import { conversationMessagePages } from './conversations.js';
import { when } from './expressions.js';
import { keys } from './keys.js';
import { sendUpdate } from './update.js';

export async function settleOtherSide(erasedSide: ConversationRecord, erased: ReadonlySet<string>): Promise<void> {
  const key = keys.conversationItem(erasedSide.other_profile_id, erasedSide.id);
  let newest: MessageRecord | undefined;
  for await (const page of conversationMessagePages(erasedSide.profile_id, erasedSide.other_profile_id)) {
    newest = page.find((m) => !erased.has(m.sender_profile_id));
    if (newest) break;
  }
  if (!newest) {
    await batchWrite([{ DeleteRequest: { Key: key } }]);
    return;
  }
  await conditionHeld(
    sendUpdate({
      key,
      set: {
        last_message_id: newest.id,
        last_message_at: newest.created_at,
        unread_count: 0,
        read_up_to: newest.id,
        read_up_to_at: newest.created_at,
        other_read_up_to: null,
      },
      when: when.exists(),
    }),
  );
}
