import { resolveActingProfile } from '../../shared/auth/acting-profile.js';
import { isOccupation } from '../../shared/domain/occupations.js';
import { ApiError, notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { updateProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';

export const handler = httpHandler(routes.updateProfile, async ({ params, body, auth, now }) => {
  await resolveActingProfile(auth.principal, params.profile_id, 'profile_editing');
  if (body.occupation != null && !isOccupation(body.occupation)) {
    throw new ApiError('invalid_request', {
      message: 'Invalid body.occupation.',
      hint: 'body.occupation must be a name from GET /v1/taxonomies/profile-options/occupations, or null.',
    });
  }
  const profile = await updateProfile(params.profile_id, body, now.toISOString());
  if (!profile) throw notFound('Profile');
  return presentProfile(profile);
});
