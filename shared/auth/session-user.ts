import type { UserRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { getUser } from '../store/users.js';
import type { Principal } from './principal.js';

/** The user behind a session principal (routes with auth `session` always have one). */
export async function sessionUser(principal: Principal | undefined): Promise<UserRecord> {
  const user = principal?.kind === 'session' ? await getUser(principal.userId) : undefined;
  if (!user) throw new AppError('unauthorized', { hint: 'Log in again with POST /v1/sessions.' });
  return user;
}
