import * as z from 'zod';
import { DisplayName, Timestamp, Uuid } from './common.js';
import { SCOPES } from '../../../domain/scopes.js';

export const Email = z
  .email()
  .max(254)
  .transform((e) => e.toLowerCase());
export const WorkspaceRole = z.enum(['owner', 'admin', 'member']);

export const User = z
  .object({
    id: Uuid,
    email: z.string(),
    email_verified: z.boolean().meta({
      description: 'Whether the address was proved by the link of a verification mail (POST /v1/email-verifications).',
    }),
    name: z.string(),
    created_at: Timestamp,
    totp_enabled: z.boolean().meta({ description: 'Whether log-in asks for a TOTP code (or a recovery code).' }),
    recovery_codes_left: z
      .number()
      .int()
      .meta({ description: 'Unused recovery codes (each works once); 0 without a second factor.' }),
  })
  .meta({ id: 'User' });

export const Workspace = z.object({ id: Uuid, name: z.string(), created_at: Timestamp }).meta({ id: 'Workspace' });

export const NewPassword = z.string().min(10).max(200);

export const CreateUserBody = z.strictObject({
  email: Email,
  password: NewPassword,
  name: DisplayName(100),
});

export const ChangePasswordBody = z.strictObject({
  current_password: z.string().min(1).max(200),
  new_password: NewPassword,
});

export const PasswordChanged = z.object({
  password_changed: z.literal(true),
  sessions_ended: z.number().int().meta({ description: 'How many other sessions of the user were ended.' }),
});

export const SessionsEnded = z.object({
  logged_out: z.literal(true),
  sessions_ended: z.number().int().meta({ description: 'How many sessions were ended, this one included.' }),
});

/** A code of the second factor: the authenticator app's current 6 digits, or one recovery code. */
export const TotpCode = z.string().max(20).meta({ description: 'The 6-digit code the authenticator app shows now.' });
export const RecoveryCode = z
  .string()
  .max(64)
  .meta({ description: 'One of the recovery codes shown when the second factor was turned on; each works once.' });

export const CreateSessionBody = z
  .strictObject({
    email: Email,
    password: z.string().min(1).max(200),
    totp_code: TotpCode.optional(),
    recovery_code: RecoveryCode.optional(),
  })
  .refine((b) => b.totp_code === undefined || b.recovery_code === undefined, {
    message: 'send totp_code or recovery_code, not both',
    path: ['recovery_code'],
  });

export const Session = z.object({ token: z.string(), expires_at: Timestamp }).meta({ id: 'Session' });

export const Me = z.object({
  user: User,
  workspaces: z.array(z.object({ id: Uuid, name: z.string(), role: WorkspaceRole })),
  platform_role: z.enum(['moderator']).nullable().meta({
    description: 'The platform role the operator gave the user (`moderator`: the moderation queue); null for most.',
  }),
  deletion: z
    .object({ status: z.literal('scheduled'), scheduled_for: Timestamp })
    .nullable()
    .meta({ description: "The account's deletion in its grace period (DELETE /v1/me), cancellable; null otherwise." }),
});

export const CreateWorkspaceBody = z.strictObject({ name: DisplayName(100) });

export const WorkspaceParams = z.strictObject({ workspace_id: Uuid });

export const AddMemberBody = z.strictObject({
  email: Email,
  role: z.enum(['admin', 'member']),
});

export const MemberParams = z.strictObject({ workspace_id: Uuid, user_id: Uuid });

export const ChangeMemberRoleBody = z.strictObject({
  role: z.enum(['admin', 'member']).meta({ description: 'The owner stays owner; there is no ownership transfer.' }),
});

export const Member = z
  .object({
    workspace_id: Uuid,
    user_id: Uuid,
    email: z.string(),
    name: z.string(),
    role: WorkspaceRole,
    created_at: Timestamp,
  })
  .meta({ id: 'WorkspaceMember' });

export const Scope = z.enum(SCOPES);

export const CreateApiKeyBody = z.strictObject({
  name: DisplayName(100),
  scopes: z
    .array(Scope)
    .min(1)
    .refine((s) => new Set(s).size === s.length, 'must not repeat a scope'),
  profile_ids: z
    .array(Uuid)
    .max(100)
    .default([])
    .refine((p) => new Set(p).size === p.length, 'must not repeat a profile id'),
});

export const ApiKey = z
  .object({
    id: Uuid,
    name: z.string(),
    scopes: z.array(Scope),
    profile_ids: z.array(Uuid),
    prefix: z.string().meta({ description: 'The first characters of the key, to recognise it.' }),
    created_at: Timestamp,
    revoked_at: Timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const ApiKeyParams = z.strictObject({ workspace_id: Uuid, api_key_id: Uuid });
