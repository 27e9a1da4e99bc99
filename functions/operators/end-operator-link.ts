import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/operators.js';
import { presentOperatorLink } from '../../shared/http/present/operators.js';
import { linkForSide } from '../../shared/operators/link-sides.js';
import { transitionOperatorLink } from '../../shared/store/operators.js';

/** pending or accepted → ended, by either side: the agent has no operator and may name another. */
export const handler = httpHandler(routes.endOperatorLink, async ({ params, auth, now }) => {
  const link = await linkForSide(params.link_id, auth.actingProfile.id, 'either');
  return presentOperatorLink(await transitionOperatorLink(link, 'end', now.toISOString()));
});
