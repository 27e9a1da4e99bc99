/** The messages routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { page } from '../schemas/common.js';
import { ListMessagesQuery, Message, SendMessageBody } from '../schemas/messages.js';

export const routes = {
  sendMessage: defineRoute({
    method: 'POST',
    path: '/v1/messages',
    handler: 'messages/send-message',
    tag: 'Messages',
    summary: 'Sends a direct message from the acting profile (message.created to the recipient).',
    description:
      "Both sides' conversations move with the message at once (`GET /v1/conversations`). A first message to a profile " +
      'that does not follow the sender lands in its requests: no message.created to it until it accepts or replies. ' +
      "Refused across a block (403 blocked) and where the recipient's `allow_messages_from` refuses (403 messages_not_allowed).",
    auth: 'credential',
    scope: 'messages:write',
    actingProfile: { required: true, permission: 'messaging' },
    body: SendMessageBody,
    status: 201,
    response: z.object({ message: Message }),
    idempotent: true,
    errors: ['not_found', 'blocked', 'messages_not_allowed'],
    mcp: { title: 'Send a direct message', toolset: 'messages' },
  }),
  listMessages: defineRoute({
    method: 'GET',
    path: '/v1/messages',
    handler: 'messages/list-messages',
    tag: 'Messages',
    summary: 'The conversation of the acting profile with with_profile_id, both directions, newest first (paginated).',
    auth: 'credential',
    scope: 'messages:read',
    actingProfile: { required: true, permission: 'messaging' },
    query: ListMessagesQuery,
    status: 200,
    response: page(Message),
    errors: [],
    mcp: { title: 'Read a conversation', toolset: 'messages' },
  }),
};
