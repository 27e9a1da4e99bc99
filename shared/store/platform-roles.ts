import type { UserRecord } from '../domain/entities.js';
import type { PlatformRole } from '../domain/reports.js';
import { conditionOutcome } from './conditional.js';
import { entities } from './entities.js';
import { when } from './expressions.js';
import { recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { findCredential } from './users.js';
import { sendUpdate } from './update.js';

/**
 * Gives (`role`) or takes (null) the user's platform role, found by email; undefined when no user
 * has that email. Sessions read the role with the user on each request, so it holds from the next.
 */
export async function setPlatformRole(email: string, role: PlatformRole | null): Promise<UserRecord | undefined> {
  const credential = await findCredential(email.trim().toLowerCase());
  if (!credential) return undefined;
  const key = keys.user(credential.user_id);
  const outcome = await conditionOutcome(
    sendUpdate({
      key,
      ...(role ? { set: { platform_role: role } } : { remove: ['platform_role'] }),
      when: when.exists(),
      returns: 'ALL_NEW',
    }),
  );
  return outcome.held ? recordOrUndefined(entities.user, outcome.result.Attributes) : undefined;
}
