import type { ApiKeyRecord, MembershipRecord, ProfileRecord, UserRecord, WorkspaceRecord } from '../domain/entities.js';

/** Records → API shapes: only the documented fields leave the service. */
export const present = {
  user: (u: UserRecord) => ({ id: u.id, email: u.email, name: u.name, created_at: u.created_at }),
  workspace: (w: WorkspaceRecord) => ({ id: w.id, name: w.name, created_at: w.created_at }),
  member: (m: MembershipRecord) => ({
    workspace_id: m.workspace_id,
    user_id: m.user_id,
    email: m.email,
    name: m.name,
    role: m.role,
    created_at: m.created_at,
  }),
  apiKey: (k: ApiKeyRecord) => ({
    id: k.id,
    name: k.name,
    scopes: k.scopes,
    profile_ids: k.profile_ids,
    prefix: k.prefix,
    created_at: k.created_at,
    revoked_at: k.revoked_at,
  }),
  profile: (p: ProfileRecord) => ({
    id: p.id,
    username: p.username,
    type: p.type,
    name: p.name,
    call_name: p.call_name,
    legal_name_verified: p.legal_name_verified,
    occupation: p.occupation,
    location: p.location,
    bio: p.bio,
    created_at: p.created_at,
    updated_at: p.updated_at,
    media: p.media,
  }),
};
