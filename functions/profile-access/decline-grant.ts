import { grantForCaller, requireSide } from '../../shared/auth/grant-sides.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentGrant } from '../../shared/http/present/grants.js';
import { transitionGrant } from '../../shared/store/grants.js';
import { routes } from '../../shared/http/contract/routes/profile-access.js';

/** pending → declined (invited side). */
export const handler = httpHandler(routes.declineGrant, async ({ params, auth, now }) => {
  const { grant, manager, invitedSide } = await grantForCaller(auth.principal, params.grant_id);
  requireSide('invited', invitedSide);
  const stored = await transitionGrant(grant, 'decline', now.toISOString(), []);
  return { access_grant: presentGrant(stored, manager) };
});
