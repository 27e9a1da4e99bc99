import { auditTarget } from '../../shared/audit/write-context.js';
import { disclosureOf } from '../../shared/domain/disclosure.js';
import { messageTimeAfter, recipientBox } from '../../shared/domain/conversations.js';
import { isSuspended } from '../../shared/domain/reports.js';
import { newMessage } from '../../shared/domain/social.js';
import { ApiError, notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentMessage } from '../../shared/http/present/messages.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { conversationSendItems, readSendContext } from '../../shared/store/conversation-send.js';
import { withConversationRetry } from '../../shared/store/conversations.js';
import { sendMessage } from '../../shared/store/messages.js';
import { routes } from '../../shared/http/contract/routes/messages.js';
import { refuseIfBlocked, refuseUnlessMessagesAllowed } from '../../shared/safety/checks.js';

/**
 * Refused across a block and where the recipient's setting refuses. A first message from a
 * profile the recipient does not follow lands in the recipient's requests: marked `request`,
 * with no message.created to the recipient until accepted.
 */
export const handler = httpHandler(routes.sendMessage, async ({ body, auth, now, viewer }) => {
  const sender = auth.actingProfile;
  if (body.recipient_profile_id === sender.id) {
    throw new ApiError('invalid_request', {
      message: 'A profile cannot message itself.',
      hint: 'body.recipient_profile_id must differ from X-Profile-Id.',
    });
  }
  const drafted = newMessage(
    now,
    sender.id,
    body.recipient_profile_id,
    body.body,
    disclosureOf(sender, auth.principal),
  );
  // Its transaction writes both sides' conversations first: the message is what was written.
  auditTarget({ type: 'message', id: drafted.id });
  const sent = await withConversationRetry(async () => {
    const context = await readSendContext(sender.id, body.recipient_profile_id);
    const recipient = context.recipient;
    if (!recipient || isSuspended(recipient)) throw notFound('Profile');
    refuseIfBlocked(viewer, recipient.id);
    refuseUnlessMessagesAllowed(context.allowMessagesFrom, context.recipientFollowsSender);
    const box = recipientBox(context.recipientConversation, context.recipientFollowsSender);
    const message = {
      ...drafted,
      created_at: messageTimeAfter(now, context.recipientConversation?.last_message_at),
      ...(box === 'requests' ? { request: true } : {}),
    };
    const events = box === 'requests' ? [] : socialEvents.messageCreated(message, sender, recipient);
    await sendMessage(message, events, conversationSendItems(message, box, context.recipientConversation));
    return message;
  });
  return { message: presentMessage(sent) };
});
