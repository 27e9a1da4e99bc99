import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/safety.js';
import { unmute } from '../../shared/store/safety.js';

/** `{ unmuted: false }` when there was no mute. */
export const handler = httpHandler(routes.unmuteProfile, async ({ body, auth }) => ({
  unmuted: await unmute(auth.actingProfile.id, body.muted_profile_id),
}));
