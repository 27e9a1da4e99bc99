/** The records the service keeps, as the store returns them (no key attributes), and their factories. */
import { newId } from './ids.js';
import { issueToken } from './secret-tokens.js';
import type { PlatformRole } from './reports.js';
import type { Scope } from './scopes.js';
import type { UserDeletion } from './erasure.js';

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
  /**
   * The second factor (shared/domain/second-factor.ts), absent until one is set up. The user
   * item is what log-in reads anyway, so checking a code costs no read of its own.
   */
  totp_secret?: string;
  /** A secret shown for set-up and not yet confirmed with a code; replaced by the next set-up. */
  totp_pending_secret?: string;
  /** The last time step whose code was accepted: only later steps' codes are (each code once). */
  totp_last_step?: number;
  /** The account's deletion while one is scheduled or running (DELETE /v1/me). */
  deletion?: UserDeletion;
  /** The unused recovery codes' hashes, as the keys of a map (one is removed when used). */
  recovery_codes?: Record<string, boolean>;
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

/** How a session was signed in to: a password, or a passkey (both factors at once). */
export type SessionMethod = 'password' | 'passkey';
export type SecondFactorMethod = 'totp' | 'recovery_code';

export interface SessionRecord {
  id: string;
  user_id: string;
  secret_hash: string;
  created_at: string;
  expires_at: string;
  /** Moved forward at most every SESSION_TOUCH_MINUTES by the requests that use the session. */
  last_used_at: string;
  /** The User-Agent that logged in (cut to 256 characters), null when none was sent. */
  user_agent: string | null;
  /** The logging-in address's network (IPv4 /24, IPv6 /48): enough to recognise, not to locate. */
  ip_prefix: string | null;
  method: SessionMethod;
  second_factor: SecondFactorMethod | null;
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
  /** Set while its erasure is scheduled or running (domain/erasure.ts): it reads as a suspended profile does. */
  deletion_scheduled_at?: string | null;
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

/** Where a log-in came from: shared/http/session-client.ts reads it from the request. */
export type SessionClient = Pick<SessionRecord, 'user_agent' | 'ip_prefix'>;

/**
 * A session valid for SESSION_DAYS from `now`; `id` and `secret_hash` come from the issued token,
 * `method` and `second_factor` from how the person proved who they are.
 */
export function newSession(
  now: Date,
  fields: Pick<SessionRecord, 'id' | 'user_id' | 'secret_hash' | 'method' | 'second_factor'> & {
    client: SessionClient;
  },
): SessionRecord {
  return {
    id: fields.id,
    user_id: fields.user_id,
    secret_hash: fields.secret_hash,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
    last_used_at: now.toISOString(),
    user_agent: fields.client.user_agent,
    ip_prefix: fields.client.ip_prefix,
    method: fields.method,
    second_factor: fields.second_factor,
  };
}

/** A new session and its token (`st_…`), answered once: only the token's hash is kept. */
export function issueSession(
  now: Date,
  fields: Pick<SessionRecord, 'user_id' | 'method' | 'second_factor'> & { client: SessionClient },
): { token: string; session: SessionRecord } {
  const id = newId();
  const { token, secretHash } = issueToken('st', id);
  return { token, session: newSession(now, { ...fields, id, secret_hash: secretHash }) };
}

/**
 * How stale `last_used_at` may be. A session used all day costs one write per 10 minutes (not
 * one per request), and a list that says "used 10 minutes ago" when it was 1 is still true enough
 * to recognise a session one did not start.
 */
export const SESSION_TOUCH_MINUTES = 10;

/**
 * What a request at `now` writes to `last_used_at` (and the time before which the stored one is
 * stale), or undefined while the stored one is fresh enough.
 */
export function sessionTouch(
  session: Pick<SessionRecord, 'last_used_at'>,
  now: Date,
): { touched: string; staleBefore: string } | undefined {
  const staleBefore = new Date(now.getTime() - SESSION_TOUCH_MINUTES * 60_000).toISOString();
  return session.last_used_at <= staleBefore ? { touched: now.toISOString(), staleBefore } : undefined;
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
