import { resolveActingProfile } from '../../shared/auth/acting-profile.js';
import { attachableMedia } from '../../shared/domain/media-attachments.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { getMedia } from '../../shared/store/media.js';
import { setProfileMedia } from '../../shared/store/profile-media.js';
import { getProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';

/** Shows the media in the slot variant: the profile's own, of the slot's purpose, ready. */
export const handler = httpHandler(routes.setProfileMedia, async ({ params, body, auth, now }) => {
  const { profile_id, slot, variant } = params;
  // The profile read consistently as well: the media its variant shows now is the one this change releases.
  const [, profile, upload] = await Promise.all([
    resolveActingProfile(auth.principal, profile_id, 'profile_editing'),
    getProfile(profile_id, { consistent: true }),
    getMedia(body.media_id, now),
  ]);
  if (!profile) throw notFound('Profile');
  const media = attachableMedia(upload, profile_id, slot, 'media_id');
  return presentProfile(await setProfileMedia(profile, slot, variant, media, now));
});
