/**
 * Agent cards (API.md "Accountable agents", Agent cards): an agent profile's A2A card signed by the
 * service, and the service's public key to verify it. Both plain JSON (`raw`), as A2A and RFC 7517
 * shape them, and both public.
 */
import { defineRoute } from '../route.js';
import { AgentCard, JsonWebKeySet } from '../schemas/agent-cards.js';
import { ProfileIdParams } from '../schemas/profiles.js';

const TAG = 'Agent cards';

export const routes = {
  getAgentCard: defineRoute({
    method: 'GET',
    path: '/v1/profiles/{profile_id}/agent-card',
    handler: 'agent-cards/get-agent-card',
    tag: TAG,
    summary: "An agent profile's A2A agent card, signed by the service (public, plain JSON).",
    description:
      'Built from the profile (name, bio), its declared skills and homepage (PATCH /v1/profiles/{profile_id} ' +
      '`{ agent }`) and its accepted operator (`provider`). `version` is a hash of the rest of the card: it changes ' +
      'exactly when the card does. `signatures[0]` is a detached JWS (ES256) over the RFC 8785 canonical JSON of the ' +
      'card without `signatures`, verifiable with GET /.well-known/jwks.json. Profiles that are not agents, ' +
      'unknown or suspended ones, and (acting as a profile) one across a block answer 404 not_found (the error envelope).',
    auth: 'none',
    // Acting as a profile applies its blocks, as the profile read does: an agent across a block is not found.
    actingProfile: { required: false },
    params: ProfileIdParams,
    status: 200,
    raw: true,
    response: AgentCard,
    publicCache: true,
    errors: ['not_found'],
    // Not a tool: an agent reads its own profile with get_profile; the card is for other agents and
    // their verifiers, which fetch it by URL, and the every-tool-set listing is held under its budget.
    mcp: false,
  }),
  getJwks: defineRoute({
    method: 'GET',
    path: '/.well-known/jwks.json',
    handler: 'agent-cards/get-jwks',
    tag: TAG,
    summary: "The service's public keys (RFC 7517 JWK Set, plain JSON) that verify agent card signatures by `kid`.",
    auth: 'none',
    status: 200,
    raw: true,
    response: JsonWebKeySet,
    publicCache: true,
    errors: [],
    mcp: false,
  }),
};
