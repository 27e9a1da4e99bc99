/** Profile access grants: a managed profile gives a manager profile permissions over it. */
import type { ProfileRecord } from './entities.js';
import { newId } from './ids.js';

export const GRANT_PERMISSIONS = [
  'posting',
  'commenting',
  'reacting',
  'following',
  'messaging',
  'profile_editing',
] as const;
export type GrantPermissionName = (typeof GRANT_PERMISSIONS)[number];

export type GrantStatus = 'pending' | 'accepted' | 'declined' | 'revoked';

export interface GrantRecord {
  id: string;
  /** The managed profile. */
  profile_id: string;
  managed_workspace_id: string;
  manager_profile_id: string;
  manager_workspace_id: string;
  permissions: GrantPermissionName[];
  status: GrantStatus;
  accepted_at: string | null;
  declined_at: string | null;
  revoked_at: string | null;
  /** When the invitation was last sent again, and how often. */
  resent_at: string | null;
  resend_count: number;
  created_at: string;
  updated_at: string;
}

/** The item that makes an accepted grant effective: one per (managed, manager) pair. */
export interface GrantAccessRecord {
  grant_id: string;
  managed_profile_id: string;
  manager_profile_id: string;
  manager_workspace_id: string;
  permissions: GrantPermissionName[];
}

export type GrantAction = 'accept' | 'decline' | 'revoke' | 'resend';

/** The statuses each action may start from: pending → accepted | declined | revoked; accepted → revoked. */
export const ALLOWED_FROM: Record<GrantAction, readonly GrantStatus[]> = {
  accept: ['pending'],
  decline: ['pending'],
  resend: ['pending'],
  revoke: ['pending', 'accepted'],
};

/** Whether the grant's permissions cover an operation (undefined: any accepted grant, e.g. a read). */
export const covers = (permissions: readonly string[], needed: string | undefined): boolean =>
  needed === undefined || permissions.includes(needed);

type GrantSide = Pick<ProfileRecord, 'id' | 'workspace_id'>;

/** An invitation: `managed` offers `manager` the permissions; pending until the manager answers. */
export function newGrant(
  now: Date,
  managed: GrantSide,
  manager: GrantSide,
  permissions: GrantPermissionName[],
): GrantRecord {
  const at = now.toISOString();
  return {
    id: newId(),
    profile_id: managed.id,
    managed_workspace_id: managed.workspace_id,
    manager_profile_id: manager.id,
    manager_workspace_id: manager.workspace_id,
    permissions,
    status: 'pending',
    accepted_at: null,
    declined_at: null,
    revoked_at: null,
    resent_at: null,
    resend_count: 0,
    created_at: at,
    updated_at: at,
  };
}
