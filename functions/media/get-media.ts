import { canActAs } from '../../shared/auth/acting-profile.js';
import { isMediaPending, MEDIA_GRANT_PERMISSION } from '../../shared/domain/media.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { routes } from '../../shared/http/contract/routes/media.js';
import { httpHandler, withHeaders } from '../../shared/http/handler.js';
import { presentMedia } from '../../shared/http/present/media.js';
import { getMedia } from '../../shared/store/media.js';
import { getProfile } from '../../shared/store/profiles.js';

/** For a credential that may act as the media's profile; anyone else is told there is no such media. */
export const handler = httpHandler(routes.getMedia, async ({ params, auth, now }) => {
  const media = await getMedia(params.media_id, now);
  const profile = media && (await getProfile(media.profile_id));
  if (!media || !profile || !(await canActAs(auth.principal, profile, MEDIA_GRANT_PERMISSION[media.purpose])))
    throw notFound('Media');
  return isMediaPending(media) ? withHeaders(presentMedia(media), { 'retry-after': '1' }) : presentMedia(media);
});
