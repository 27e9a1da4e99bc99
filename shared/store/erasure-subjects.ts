/** Who an account's erasure erases: the workspaces the user owns, with every profile of them. */
import type { UserRecord } from '../domain/entities.js';
import type { ErasureSubjects } from '../domain/erasure.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { entities } from './entities.js';
import { queryPath } from './paths.js';
import { listMemberships } from './workspaces.js';

/** Workspaces whose profiles are read at once. */
const WORKSPACES_AT_ONCE = 4;

/**
 * A workspace has one owner (domain/members.ts): those the user owns are erased whole; in the
 * others only the membership ends (the walk finds it by the user's id).
 */
export async function accountSubjects(user: Pick<UserRecord, 'id' | 'email'>): Promise<ErasureSubjects> {
  const owned = (await listMemberships(user.id)).filter((m) => m.role === 'owner').map((m) => m.workspace_id);
  const profiles = await mapLimit(owned, WORKSPACES_AT_ONCE, (workspaceId) =>
    queryPath(entities.profile, 'byWorkspace', { workspace_id: workspaceId }, { attributes: ['id', 'username'] }),
  );
  return {
    profiles: profiles.flat().map((p) => ({ id: p.id, username: p.username })),
    user: { id: user.id, email: user.email },
    workspace_ids: owned,
  };
}
