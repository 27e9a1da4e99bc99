/** The operator routes: an agent profile names its human or company operator, who confirms (API.md "Accountable agents"). */
import { defineRoute } from '../route.js';
import { PageQuery, page } from '../schemas/common.js';
import { OperatorLinkIdParams, OperatorLinkResult, RequestOperatorBody } from '../schemas/operators.js';
import { Profile, ProfileIdParams } from '../schemas/profiles.js';

export const routes = {
  requestOperator: defineRoute({
    method: 'POST',
    path: '/v1/profiles/{profile_id}/operator',
    handler: 'operators/request-operator',
    tag: 'Operators',
    summary: 'An agent profile asks a human or company profile to be its operator (link status pending).',
    description:
      'Acting as the agent (`profile_id`). 400 when `profile_id` is not an agent or the operator is not a human or ' +
      'company profile; 409 invalid_state while the agent has a pending or accepted link (end it first).',
    auth: 'credential',
    scope: 'profiles:write',
    params: ProfileIdParams,
    body: RequestOperatorBody,
    status: 201,
    response: OperatorLinkResult,
    errors: ['profile_not_permitted', 'not_found', 'invalid_state'],
    // Not a tool: naming an operator is a one-time setup act, done over HTTP by whoever deploys the agent, and the
    // every-tool-set listing is held under 40 KB (test/e2e/mcp.test.ts), which these routes would cross.
    mcp: false,
  }),
  acceptOperatorLink: defineRoute({
    method: 'POST',
    path: '/v1/operator-links/{link_id}/accept',
    handler: 'operators/accept-operator-link',
    tag: 'Operators',
    summary: 'The operator accepts a pending link: the agent shows it as its operator.',
    description:
      'Acting as the operator; anyone else gets 404 not_found; a link that is not pending 409 invalid_state.',
    auth: 'credential',
    scope: 'profiles:write',
    actingProfile: { required: true, permission: 'profile_editing' },
    params: OperatorLinkIdParams,
    status: 200,
    response: OperatorLinkResult,
    errors: ['not_found', 'invalid_state'],
    // Not a tool: the operator is a human or company vouching for an agent, which an agent's tool call should not do for it.
    mcp: false,
  }),
  declineOperatorLink: defineRoute({
    method: 'POST',
    path: '/v1/operator-links/{link_id}/decline',
    handler: 'operators/decline-operator-link',
    tag: 'Operators',
    summary: 'The operator declines a pending link.',
    description:
      'Acting as the operator; anyone else gets 404 not_found; a link that is not pending 409 invalid_state.',
    auth: 'credential',
    scope: 'profiles:write',
    actingProfile: { required: true, permission: 'profile_editing' },
    params: OperatorLinkIdParams,
    status: 200,
    response: OperatorLinkResult,
    errors: ['not_found', 'invalid_state'],
    // Not a tool, as accept: answering for the operator is the human's or company's act.
    mcp: false,
  }),
  endOperatorLink: defineRoute({
    method: 'DELETE',
    path: '/v1/operator-links/{link_id}',
    handler: 'operators/end-operator-link',
    tag: 'Operators',
    summary: 'Either side ends a pending or accepted link (status ended); the agent may then name another operator.',
    description:
      'Acting as the agent or the operator; anyone else gets 404 not_found; a declined or ended link 409 invalid_state.',
    auth: 'credential',
    scope: 'profiles:write',
    actingProfile: { required: true, permission: 'profile_editing' },
    params: OperatorLinkIdParams,
    status: 200,
    response: OperatorLinkResult,
    errors: ['not_found', 'invalid_state'],
    // Not a tool, as the request: a setup act, and the listing's budget.
    mcp: false,
  }),
  listAgents: defineRoute({
    method: 'GET',
    path: '/v1/profiles/{profile_id}/agents',
    handler: 'operators/list-agents',
    tag: 'Operators',
    summary: 'The agent profiles the profile operates (accepted links), latest acceptance first (public, paginated).',
    auth: 'none',
    // Acting as a profile applies its blocks: a profile across a block is not found, nor listed.
    actingProfile: { required: false },
    params: ProfileIdParams,
    query: PageQuery,
    status: 200,
    response: page(Profile),
    errors: ['not_found'],
    // Not a tool: the listing's budget; an agent reads its own operator in get_profile.
    mcp: false,
  }),
};
