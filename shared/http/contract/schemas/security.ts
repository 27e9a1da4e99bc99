import * as z from 'zod';
import { Timestamp, Uuid } from './common.js';
import { TotpCode } from './identity.js';

const CurrentPassword = z.string().min(1).max(200).meta({ description: "The account's current password." });

export const StartTotpBody = z.strictObject({ password: CurrentPassword });

export const TotpSetup = z.object({
  secret: z.string().meta({ description: 'The TOTP secret, base32, for typing into an authenticator app.' }),
  otpauth_uri: z.string().meta({ description: 'The same secret as an `otpauth://totp/…` URI, for a QR code.' }),
});

export const ConfirmTotpBody = z.strictObject({ code: TotpCode });

export const TotpEnabled = z.object({
  enabled: z.literal(true),
  recovery_codes: z
    .array(z.string())
    .meta({ description: 'Ten single-use codes that stand in for a TOTP code; shown only in this answer.' }),
});

export const DisableTotpBody = z.strictObject({
  password: CurrentPassword,
  code: z
    .string()
    .max(64)
    .meta({ description: "The authenticator app's current 6-digit code, or an unused recovery code." }),
});

export const TotpDisabled = z.object({ enabled: z.literal(false) });

export const SessionInfo = z
  .object({
    id: Uuid,
    created_at: Timestamp,
    last_used_at: Timestamp.meta({ description: 'When a request last used it, to within 10 minutes.' }),
    user_agent: z.string().nullable(),
    ip_prefix: z.string().nullable().meta({ description: 'The network the log-in came from: IPv4 /24 or IPv6 /48.' }),
    method: z.enum(['password', 'passkey']),
    second_factor: z.enum(['totp', 'recovery_code']).nullable(),
    current: z.boolean().meta({ description: 'Whether this is the session the request was made with.' }),
  })
  .meta({ id: 'SessionInfo' });

export const SessionList = z.object({ items: z.array(SessionInfo) });

export const SessionParams = z.strictObject({ session_id: Uuid });

export const SessionEnded = z.object({ ended: z.literal(true) });
