import { resolveActingProfile } from '../../shared/auth/acting-profile.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { setProfileMedia } from '../../shared/store/profile-media.js';
import { getProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';

/** Shows nothing in the slot variant and releases its media; a variant that shows nothing answers the profile as it is. */
export const handler = httpHandler(routes.removeProfileMedia, async ({ params, auth, now }) => {
  const { profile_id, slot, variant } = params;
  const [, profile] = await Promise.all([
    resolveActingProfile(auth.principal, profile_id, 'profile_editing'),
    getProfile(profile_id, { consistent: true }),
  ]);
  if (!profile) throw notFound('Profile');
  if (!profile.media_ids[slot][variant]) return presentProfile(profile);
  return presentProfile(await setProfileMedia(profile, slot, variant, undefined, now));
});
