import type { UserRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { getUser } from '../store/users.js';
import type { Principal } from './principal.js';

/**
 * The user behind a session principal (routes with auth `session` always have one). An account
 * being erased has none: its sessions are ending.
 */
export async function sessionUser(principal: Principal | undefined): Promise<UserRecord> {
  const user = principal?.kind === 'session' ? await getUser(principal.userId) : undefined;
  if (!user || beingErased(user)) throw new AppError('unauthorized', { hint: 'Log in again with POST /v1/sessions.' });
  return user;
}

/** Whether the account's erasure is running (from then on no credential of it works). */
export const beingErased = (user: Pick<UserRecord, 'deletion'>): boolean => user.deletion?.status === 'in_progress';
