import { disclosureOf } from '../../shared/domain/disclosure.js';
import { isSuspended } from '../../shared/domain/reports.js';
import { newMessage } from '../../shared/domain/social.js';
import { ApiError, notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentMessage } from '../../shared/http/present/messages.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { sendMessage } from '../../shared/store/messages.js';
import { getProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/messages.js';
import { refuseIfBlocked } from '../../shared/safety/checks.js';

/** Refused across a block. */
export const handler = httpHandler(routes.sendMessage, async ({ body, auth, now, viewer }) => {
  const sender = auth.actingProfile;
  if (body.recipient_profile_id === sender.id) {
    throw new ApiError('invalid_request', {
      message: 'A profile cannot message itself.',
      hint: 'body.recipient_profile_id must differ from X-Profile-Id.',
    });
  }
  const recipient = await getProfile(body.recipient_profile_id);
  if (!recipient || isSuspended(recipient)) throw notFound('Profile');
  refuseIfBlocked(viewer, recipient.id);
  const message = newMessage(now, sender.id, recipient.id, body.body, disclosureOf(sender, auth.principal));
  await sendMessage(message, socialEvents.messageCreated(message, sender, recipient));
  return { message: presentMessage(message) };
});
