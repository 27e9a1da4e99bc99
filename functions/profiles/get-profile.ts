import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { getProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';

export const handler = httpHandler(routes.getProfile, async ({ params }) => {
  const profile = await getProfile(params.profile_id);
  if (!profile) throw notFound('Profile');
  return presentProfile(profile);
});
