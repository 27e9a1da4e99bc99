import * as z from 'zod';
import { Timestamp, Uuid } from './common.js';
import { SCOPES } from '../../../domain/scopes.js';

export const Email = z.email().max(254).transform((e) => e.toLowerCase());
export const WorkspaceRole = z.enum(['owner', 'admin', 'member']);

export const User = z
  .object({ id: Uuid, email: z.string(), name: z.string(), created_at: Timestamp })
  .meta({ id: 'User' });

export const Workspace = z
  .object({ id: Uuid, name: z.string(), created_at: Timestamp })
  .meta({ id: 'Workspace' });

export const CreateUserBody = z.strictObject({
  email: Email,
  password: z.string().min(10).max(200),
  name: z.string().trim().min(1).max(100),
});

export const CreateSessionBody = z.strictObject({
  email: Email,
  password: z.string().min(1).max(200),
});

export const Session = z.object({ token: z.string(), expires_at: Timestamp }).meta({ id: 'Session' });

export const Me = z.object({
  user: User,
  workspaces: z.array(z.object({ id: Uuid, name: z.string(), role: WorkspaceRole })),
});

export const CreateWorkspaceBody = z.strictObject({ name: z.string().trim().min(1).max(100) });

export const WorkspaceParams = z.strictObject({ workspace_id: Uuid });

export const AddMemberBody = z.strictObject({
  email: Email,
  role: z.enum(['admin', 'member']),
});

export const Member = z
  .object({ workspace_id: Uuid, user_id: Uuid, email: z.string(), name: z.string(), role: WorkspaceRole, created_at: Timestamp })
  .meta({ id: 'WorkspaceMember' });

export const Scope = z.enum(SCOPES);

export const CreateApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
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
