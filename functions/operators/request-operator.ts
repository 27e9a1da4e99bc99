import { resolveActingProfile } from '../../shared/auth/acting-profile.js';
import { isSuspended } from '../../shared/domain/reports.js';
import { newOperatorLink, operatorRefusal } from '../../shared/domain/operators.js';
import { ApiError, notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/operators.js';
import { presentOperatorLink } from '../../shared/http/present/operators.js';
import { createOperatorLink } from '../../shared/store/operators.js';
import { getProfile } from '../../shared/store/profiles.js';

/** Acting as the agent: a pending link to the named operator, unless the agent has an open one (409). */
export const handler = httpHandler(routes.requestOperator, async ({ params, body, auth, now }) => {
  const [agent, operator] = await Promise.all([
    resolveActingProfile(auth.principal, params.profile_id, 'profile_editing'),
    getProfile(body.operator_profile_id),
  ]);
  if (!operator || isSuspended(operator)) throw notFound('Operator profile');
  const refusal = operatorRefusal(agent, operator);
  if (refusal) {
    throw new ApiError('invalid_request', {
      message: refusal,
      hint: 'profile_id must be an agent profile, and body.operator_profile_id a human or company profile.',
    });
  }
  const link = newOperatorLink(now, agent.id, operator.id);
  await createOperatorLink(link);
  return presentOperatorLink(link);
});
