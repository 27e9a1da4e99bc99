import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/safety.js';
import { unblock } from '../../shared/store/safety.js';

/** `{ unblocked: false }` when there was no block. The follows the block ended stay ended. */
export const handler = httpHandler(routes.unblockProfile, async ({ body, auth }) => ({
  unblocked: await unblock(auth.actingProfile.id, body.blocked_profile_id),
}));
