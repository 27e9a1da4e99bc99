import { isManagedSide } from '../../shared/auth/grant-sides.js';
import { newGrant } from '../../shared/domain/grants.js';
import { ApiError, notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentGrant } from '../../shared/http/present/grants.js';
import { createGrant } from '../../shared/store/grants.js';
import { getProfiles } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/profile-access.js';

/** Invites a manager profile to manage `profile_id`; the grant starts `pending`. */
export const handler = httpHandler(routes.createGrant, async ({ body, auth, now }) => {
  if (body.profile_id === body.manager_profile_id) {
    throw new ApiError('invalid_request', {
      message: 'A profile cannot manage itself.',
      hint: 'body.manager_profile_id must differ from body.profile_id.',
    });
  }
  const profiles = await getProfiles([body.profile_id, body.manager_profile_id]);
  const managed = profiles.get(body.profile_id);
  const manager = profiles.get(body.manager_profile_id);
  if (!managed || !(await isManagedSide(auth.principal, managed))) {
    throw new ApiError('profile_not_permitted', {
      message: 'You may not grant access to this profile.',
      hint: 'body.profile_id must be a profile attached to the API key, or one of a workspace where your session is owner or admin.',
    });
  }
  if (!manager) throw notFound('Manager profile');
  const grant = newGrant(now, managed, manager, body.permissions);
  await createGrant(grant);
  return { access_grant: presentGrant(grant, manager) };
});
