/**
 * The first thing an erasure does: every way in of its subjects ends at once (the walk would
 * reach them too, but a page at a time): the user's sessions and the email's credential (no new
 * log-in), the API keys and the connected apps' grants of the workspaces erased whole.
 */
import type { ErasureSubjects } from '../domain/erasure.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { batchWrite } from './batch.js';
import { entities } from './entities.js';
import { keys } from './keys.js';
import { queryPath } from './paths.js';
import { endUserSessions } from './sessions.js';

/** Workspaces whose credentials are ended at once. */
const WORKSPACES_AT_ONCE = 4;

export async function endSubjectCredentials(subjects: ErasureSubjects): Promise<void> {
  if (subjects.user) {
    await endUserSessions(subjects.user.id);
    await batchWrite([{ DeleteRequest: { Key: keys.email(subjects.user.email) } }]);
  }
  await mapLimit(subjects.workspace_ids, WORKSPACES_AT_ONCE, async (workspaceId) => {
    const [apiKeys, grants] = await Promise.all([
      queryPath(entities.apiKey, 'byWorkspace', { workspace_id: workspaceId }, { attributes: ['id'] }),
      queryPath(entities.oauthGrant, 'byWorkspace', { workspace_id: workspaceId }, { attributes: ['id'] }),
    ]);
    await batchWrite([
      ...apiKeys.map((k) => ({ DeleteRequest: { Key: keys.apiKey(k.id) } })),
      ...grants.map((g) => ({ DeleteRequest: { Key: keys.oauthGrant(g.id) } })),
    ]);
  });
}
