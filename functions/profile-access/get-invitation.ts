import { grantForCaller } from '../../shared/auth/grant-sides.js';
import { httpHandler } from '../../shared/http/handler.js';
import { present } from '../../shared/http/present.js';
import { presentSocial } from '../../shared/http/present-social.js';
import { routes } from './routes.js';

/** The invited side or the managed side may read it; anyone else gets 404. */
export const handler = httpHandler(routes.getInvitation, async ({ params, auth }) => {
  const { grant, managed, manager } = await grantForCaller(auth.principal!, params.grant_id);
  return { access_grant: presentSocial.grant(grant, manager), managed_profile: present.profile(managed) };
});
