import { grantForCaller } from '../../shared/auth/grant-sides.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentGrant } from '../../shared/http/present/grants.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { routes } from '../../shared/http/contract/routes/profile-access.js';

/** The invited side or the managed side may read it; anyone else gets 404. */
export const handler = httpHandler(routes.getInvitation, async ({ params, auth }) => {
  const { grant, managed, manager } = await grantForCaller(auth.principal, params.grant_id);
  return { access_grant: presentGrant(grant, manager), managed_profile: presentProfile(managed) };
});
