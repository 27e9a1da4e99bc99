import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/operators.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { listOperatedAgents } from '../../shared/store/operators.js';
import { getProfile, getProfiles } from '../../shared/store/profiles.js';

/**
 * Public: the agents the profile operates, latest acceptance first: one Query and one
 * BatchGetItem of the agents (gone, suspended or blocked ones are left out, so a page may hold
 * fewer than `limit`).
 */
export const handler = httpHandler(routes.listAgents, async ({ params, query, viewer }) => {
  const [operator, page] = await Promise.all([
    getProfile(params.profile_id),
    listOperatedAgents(params.profile_id, query),
  ]);
  if (!operator || isSuspended(operator) || viewer.isBlockedWith(operator.id)) throw notFound('Profile');
  const agents = await getProfiles(page.items.map((item) => item.agent_profile_id));
  return {
    items: page.items.flatMap((item) => {
      const agent = agents.get(item.agent_profile_id);
      return agent && !isSuspended(agent) && !viewer.isBlockedWith(agent.id) ? [presentProfile(agent)] : [];
    }),
    next_cursor: page.next_cursor,
  };
});
