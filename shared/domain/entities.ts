/** The records the service keeps, as the store returns them (no key attributes). */
import type { Scope } from './scopes.js';

export type WorkspaceRole = 'owner' | 'admin' | 'member';
export type ProfileType = 'human' | 'company' | 'agent';

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  personal_workspace_id: string;
  created_at: string;
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
  media: { avatar: { light?: MediaVariant; dark?: MediaVariant }; banner: { light?: MediaVariant; dark?: MediaVariant } };
}
