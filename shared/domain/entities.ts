/** The records the service keeps, as the store returns them (no key attributes), and their factories. */
import { newId } from './ids.js';
import type { PlatformRole } from './reports.js';
import type { Scope } from './scopes.js';

export type WorkspaceRole = 'owner' | 'admin' | 'member';
export type ProfileType = 'human' | 'company' | 'agent';

export interface UserRecord {
  id: string;
  email: string;
  /** Whether the person proved the address is theirs (the link of a verification mail). */
  email_verified: boolean;
  name: string;
  personal_workspace_id: string;
  created_at: string;
  /** Given and taken by the operator's `npm run moderator`; absent for most users. */
  platform_role?: PlatformRole | null;
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  created_at: string;
}

export interface MembershipRecord {
  workspace_id: string;
  workspace_name: string;
  user_id: string;
  email: string;
  name: string;
  role: WorkspaceRole;
  created_at: string;
}

export interface SessionRecord {
  id: string;
  user_id: string;
  secret_hash: string;
  created_at: string;
  expires_at: string;
}

export interface ApiKeyRecord {
  id: string;
  workspace_id: string;
  name: string;
  scopes: Scope[];
  profile_ids: string[];
  prefix: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface MediaVariant {
  source_url: string;
  large_url: string;
  medium_url: string;
  small_url: string;
}

export interface Location {
  country_code?: string;
  country_name?: string;
  state_code?: string;
  state_name?: string;
  city_name?: string;
}

export interface ProfileRecord {
  id: string;
  workspace_id: string;
  username: string;
  type: ProfileType;
  name: string;
  call_name: string;
  legal_name_verified: boolean;
  occupation: string | null;
  location: Location | null;
  bio: string | null;
  created_at: string;
  updated_at: string;
  media: {
    avatar: { light?: MediaVariant; dark?: MediaVariant };
    banner: { light?: MediaVariant; dark?: MediaVariant };
  };
  /** The media shown in each slot variant (internal: the one a replacement or removal releases). */
  media_ids: {
    avatar: { light?: string; dark?: string };
    banner: { light?: string; dark?: string };
  };
  /** Set by moderation (suspend_profile): the profile reads as 404, leaves every list and cannot be acted as. */
  suspended_at?: string | null;
}

/** How long a session token stays valid. */
export const SESSION_DAYS = 30;

/** A new account; its personal workspace gets the id named here. */
export function newUser(now: Date, fields: Pick<UserRecord, 'email' | 'name'>): UserRecord {
  return {
    id: newId(),
    email: fields.email,
    email_verified: false,
    name: fields.name,
    personal_workspace_id: newId(),
    created_at: now.toISOString(),
  };
}

export function newWorkspace(now: Date, name: string, id: string = newId()): WorkspaceRecord {
  return { id, name, created_at: now.toISOString() };
}

/** The personal workspace created with an account, named after its owner. */
export const newPersonalWorkspace = (now: Date, user: UserRecord): WorkspaceRecord =>
  newWorkspace(now, `${user.name}'s workspace`, user.personal_workspace_id);

export function newMembership(
  now: Date,
  workspace: Pick<WorkspaceRecord, 'id' | 'name'>,
  user: Pick<UserRecord, 'id' | 'email' | 'name'>,
  role: WorkspaceRole,
): MembershipRecord {
  return {
    workspace_id: workspace.id,
    workspace_name: workspace.name,
    user_id: user.id,
    email: user.email,
    name: user.name,
    role,
    created_at: now.toISOString(),
  };
}

/** A session valid for SESSION_DAYS from `now`; `id` and `secret_hash` come from the issued token. */
export function newSession(now: Date, fields: Pick<SessionRecord, 'id' | 'user_id' | 'secret_hash'>): SessionRecord {
  return {
    id: fields.id,
    user_id: fields.user_id,
    secret_hash: fields.secret_hash,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
  };
}

/** A live API key; `id`, `prefix` and `secret_hash` come from the issued token. */
export function newApiKey(
  now: Date,
  fields: Pick<ApiKeyRecord, 'id' | 'workspace_id' | 'name' | 'scopes' | 'profile_ids' | 'prefix' | 'secret_hash'>,
): ApiKeyRecord {
  return {
    id: fields.id,
    workspace_id: fields.workspace_id,
    name: fields.name,
    scopes: fields.scopes,
    profile_ids: fields.profile_ids,
    prefix: fields.prefix,
    secret_hash: fields.secret_hash,
    created_at: now.toISOString(),
    revoked_at: null,
  };
}

/** A new profile: not verified, no occupation, location, bio or media yet. */
export function newProfile(
  now: Date,
  fields: Pick<ProfileRecord, 'workspace_id' | 'username' | 'type' | 'name' | 'call_name'>,
): ProfileRecord {
  const at = now.toISOString();
  return {
    id: newId(),
    workspace_id: fields.workspace_id,
    username: fields.username,
    type: fields.type,
    name: fields.name,
    call_name: fields.call_name,
    legal_name_verified: false,
    occupation: null,
    location: null,
    bio: null,
    created_at: at,
    updated_at: at,
    media: { avatar: {}, banner: {} },
    media_ids: { avatar: {}, banner: {} },
  };
}
