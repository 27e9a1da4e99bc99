import { grantForCaller, requireSide } from '../../shared/auth/grant-sides.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentGrant } from '../../shared/http/present/grants.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { transitionGrant } from '../../shared/store/grants.js';
import { routes } from '../../shared/http/contract/routes/profile-access.js';

/** pending → accepted (invited side); the manager can act through it at once; access_grant.accepted goes to the managed profile. */
export const handler = httpHandler(routes.acceptGrant, async ({ params, auth, now }) => {
  const { grant, managed, manager, invitedSide } = await grantForCaller(auth.principal, params.grant_id);
  requireSide('invited', invitedSide);
  const at = now.toISOString();
  const accepted = { ...grant, status: 'accepted' as const, accepted_at: at, updated_at: at };
  const stored = await transitionGrant(grant, 'accept', at, socialEvents.grantAccepted(accepted, manager, managed));
  return { access_grant: presentGrant(stored, manager) };
});
