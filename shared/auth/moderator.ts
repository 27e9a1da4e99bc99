import type { UserRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import type { Principal } from './principal.js';
import { sessionUser } from './session-user.js';

/**
 * The session's user, if it holds the platform role `moderator`. The role is read with the user on
 * every request (never kept in the session), so a grant or revoke holds from the next request.
 */
export async function requireModerator(principal: Principal | undefined): Promise<UserRecord> {
  const user = await sessionUser(principal);
  if (user.platform_role !== 'moderator') {
    throw new AppError('forbidden', {
      message: 'Only moderators may do this.',
      hint: 'The operator gives the moderator role with `npm run moderator -- grant <email>`.',
    });
  }
  return user;
}
