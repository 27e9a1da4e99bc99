/** Account and profile deletion (API.md "Your data is yours"): bodies and the deletion's answer. */
import * as z from 'zod';
import { Timestamp } from './common.js';

export const DeleteMeBody = z.strictObject({
  password: z.string().min(1).max(200),
  when: z.enum(['now', 'after_grace']).default('after_grace').meta({
    description: '`after_grace` (the default): the erasure runs in 30 days unless cancelled; `now`: at once.',
  }),
});

export const AccountDeletion = z.object({
  deletion: z.object({
    status: z.enum(['scheduled', 'in_progress']),
    scheduled_for: Timestamp.meta({ description: 'When the erasure runs (or ran, for `now`).' }),
  }),
});

export const DeletionCancelled = z.object({ cancelled: z.literal(true) });

export const DeleteProfileBody = z.strictObject({
  confirm_username: z.string().min(1).max(100).meta({ description: "The profile's username, typed again." }),
});

export const ProfileDeletion = z.object({ deletion: z.object({ status: z.literal('in_progress') }) });
