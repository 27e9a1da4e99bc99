import { newBlock } from '../../shared/domain/safety.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/safety.js';
import { otherProfile } from '../../shared/safety/checks.js';
import { block } from '../../shared/store/safety.js';

/** Idempotent: a repeat answers the same and keeps the first block's time. */
export const handler = httpHandler(routes.blockProfile, async ({ body, auth, now }) => {
  const blocker = auth.actingProfile;
  const blocked = await otherProfile(blocker.id, body.blocked_profile_id, 'blocked_profile_id');
  const created = await block(newBlock(now, blocker.id, blocked.id));
  return created
    ? { blocked: true as const }
    : withHint({ blocked: true as const }, 'The profile was already blocked; nothing changed.');
});
