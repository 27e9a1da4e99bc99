import { resolveActingProfile } from '../../shared/auth/acting-profile.js';
import type { AgentDeclarationRecord } from '../../shared/domain/agent-cards.js';
import { isOccupation } from '../../shared/domain/occupations.js';
import { ApiError, notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentProfileWithAgent } from '../../shared/http/present/profiles.js';
import { getAgentDeclaration, updateAgentProfile } from '../../shared/store/agent-cards.js';
import { updateProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';

const notAnAgent = () =>
  new ApiError('invalid_request', {
    message: 'Only an agent profile declares an agent card.',
    hint: 'Leave body.agent out: skills and homepage_url belong to profiles of type agent.',
  });

/**
 * Edits the profile; `agent` (agent profiles only) replaces the declaration its card shows, in the
 * same transaction. Every refusal comes before any write.
 */
export const handler = httpHandler(routes.updateProfile, async ({ params, body, auth, now }) => {
  const acting = await resolveActingProfile(auth.principal, params.profile_id, 'profile_editing');
  if (body.occupation != null && !isOccupation(body.occupation)) {
    throw new ApiError('invalid_request', {
      message: 'Invalid body.occupation.',
      hint: 'body.occupation must be a name from GET /v1/taxonomies/profile-options/occupations, or null.',
    });
  }
  const { agent, ...changes } = body;
  if (agent && acting.type !== 'agent') throw notAnAgent();
  const at = now.toISOString();
  if (agent) {
    const declaration: AgentDeclarationRecord = {
      profile_id: acting.id,
      skills: agent.skills,
      homepage_url: agent.homepage_url ?? null,
      updated_at: at,
    };
    if (!(await updateAgentProfile(acting.id, changes, declaration))) throw notFound('Profile');
    return presentProfileWithAgent({ ...acting, ...changes, updated_at: at }, declaration);
  }
  // An agent's answer shows its declaration as it stands: read beside the update, not after it.
  const [profile, declaration] = await Promise.all([
    updateProfile(params.profile_id, changes, at),
    acting.type === 'agent' ? getAgentDeclaration(acting.id) : undefined,
  ]);
  if (!profile) throw notFound('Profile');
  return presentProfileWithAgent(profile, declaration);
});
