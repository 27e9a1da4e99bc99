import { movesReadMarkForward } from '../../shared/domain/conversations.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/conversations.js';
import { getConversation, moveReadMark, readTarget, withConversationRetry } from '../../shared/store/conversations.js';

/**
 * The read mark moves forward to `up_to` (default: the last message), with the other side's copy
 * of it, under a condition on what was read: a message arriving meanwhile makes it read again, so
 * the count left is exact.
 */
export const handler = httpHandler(routes.markConversationRead, async ({ params, body, auth }) => {
  const unread = await withConversationRetry(async () => {
    const conversation = await getConversation(auth.actingProfile.id, params.conversation_id);
    if (!conversation) throw notFound('Conversation');
    const target = body.up_to
      ? await readTarget(conversation, body.up_to)
      : { id: conversation.last_message_id, created_at: conversation.last_message_at, unread: 0 };
    if (!target) throw notFound('Message');
    if (!movesReadMarkForward(conversation, target)) return conversation.unread_count;
    await moveReadMark(conversation, target, target.unread);
    return target.unread;
  });
  return { unread_count: unread };
});
