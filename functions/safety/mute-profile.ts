import { newMute } from '../../shared/domain/safety.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/safety.js';
import { otherProfile } from '../../shared/safety/checks.js';
import { mute } from '../../shared/store/safety.js';

/** Idempotent: a repeat answers the same and keeps the first mute's time. */
export const handler = httpHandler(routes.muteProfile, async ({ body, auth, now }) => {
  const muter = auth.actingProfile;
  const muted = await otherProfile(muter.id, body.muted_profile_id, 'muted_profile_id');
  const created = await mute(newMute(now, muter.id, muted.id));
  return created
    ? { muted: true as const }
    : withHint({ muted: true as const }, 'The profile was already muted; nothing changed.');
});
