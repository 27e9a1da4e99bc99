import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/operators.js';
import { presentOperatorLink } from '../../shared/http/present/operators.js';
import { linkForSide } from '../../shared/operators/link-sides.js';
import { transitionOperatorLink } from '../../shared/store/operators.js';

/** pending → declineed, by the operator. */
export const handler = httpHandler(routes.declineOperatorLink, async ({ params, auth, now }) => {
  const link = await linkForSide(params.link_id, auth.actingProfile.id, 'operator');
  return presentOperatorLink(await transitionOperatorLink(link, 'decline', now.toISOString()));
});
