/** Bodies and answers of the account routes: email verification, email change, password reset. */
import * as z from 'zod';
import { Timestamp } from './common.js';
import { Email, NewPassword, User } from './identity.js';

const MailToken = z.string().min(1).max(200).meta({
  description: 'The token of the link in the mail (`token=…`), exactly as it came.',
});

export const TokenBody = z.strictObject({ token: MailToken });

export const UserAnswer = z.object({ user: User });

export const VerificationSent = z.object({
  sent: z.literal(true),
  expires_at: Timestamp.meta({ description: 'Until when the new link is valid (24 hours).' }),
});

export const ChangeEmailBody = z.strictObject({
  email: Email,
  password: z.string().min(1).max(200).meta({ description: "The account's present password." }),
});

export const EmailChangePending = z.object({
  user: User,
  pending_email: z.string().meta({
    description: 'The new address: it replaces `user.email` once the link mailed to it is used.',
  }),
});

export const PasswordResetBody = z.strictObject({ email: Email });

export const PasswordResetRequested = z.object({
  requested: z.literal(true).meta({
    description: 'Answered alike whether or not an account has the address (no account enumeration).',
  }),
});

export const PasswordResetConfirmBody = z.strictObject({
  token: MailToken,
  password: NewPassword,
  totp_code: z
    .string()
    .regex(/^\d{6}$/)
    .optional()
    .meta({ description: 'With a second factor enabled: a code of the authenticator app.' }),
  recovery_code: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'With a second factor enabled, instead of totp_code: one of the recovery codes.' }),
});
