import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/operators.js';
import { presentOperatorLink } from '../../shared/http/present/operators.js';
import { linkForSide } from '../../shared/operators/link-sides.js';
import { transitionOperatorLink } from '../../shared/store/operators.js';

/** pending → accepted, by the operator: the agent shows it as its operator from the next read. */
export const handler = httpHandler(routes.acceptOperatorLink, async ({ params, auth, now }) => {
  const link = await linkForSide(params.link_id, auth.actingProfile.id, 'operator');
  return presentOperatorLink(await transitionOperatorLink(link, 'accept', now.toISOString()));
});
