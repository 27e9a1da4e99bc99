import * as z from 'zod';
import { PageQuery, Timestamp, Uuid } from './common.js';
import { DisclosureFields } from './disclosure.js';

export const Message = z
  .object({
    id: Uuid,
    sender_profile_id: Uuid,
    recipient_profile_id: Uuid,
    body: z.string(),
    created_at: Timestamp,
    ...DisclosureFields,
  })
  .meta({ id: 'Message' });

export const SendMessageBody = z.strictObject({
  recipient_profile_id: Uuid,
  body: z
    .string()
    .min(1)
    .max(5000)
    .refine((s) => s.trim().length > 0, 'must not be blank'),
});

export const ListMessagesQuery = PageQuery.extend({
  with_profile_id: Uuid.meta({ description: 'The other profile of the conversation.' }),
});
