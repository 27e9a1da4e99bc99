import { grantForCaller, requireSide } from '../../shared/auth/grant-sides.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentGrant } from '../../shared/http/present/grants.js';
import { transitionGrant } from '../../shared/store/grants.js';
import { routes } from '../../shared/http/contract/routes/profile-access.js';

/** Managed side, pending only: records the resend (resent_at, resend_count). */
export const handler = httpHandler(routes.resendGrant, async ({ params, auth, now }) => {
  const { grant, manager, managedSide } = await grantForCaller(auth.principal, params.grant_id);
  requireSide('managed', managedSide);
  const stored = await transitionGrant(grant, 'resend', now.toISOString(), []);
  return { access_grant: presentGrant(stored, manager) };
});
