/** The discovery documents (RFC 9728, RFC 8414): everything follows from the base URL, which is the issuer. */
import { SCOPES } from '../domain/scopes.js';
import type { Audience } from '../domain/oauth.js';
import { MCP_PATH } from '../mcp/path.js';

export const resourceUrl = (base: string, audience: Audience) => (audience === 'mcp' ? `${base}${MCP_PATH}` : base);

export const protectedResourceMetadata = (base: string, audience: Audience) => ({
  resource: resourceUrl(base, audience),
  authorization_servers: [base],
  scopes_supported: SCOPES,
  bearer_methods_supported: ['header' as const],
});

export const authorizationServerMetadata = (base: string) => ({
  issuer: base,
  authorization_endpoint: `${base}/oauth/authorize`,
  token_endpoint: `${base}/oauth/token`,
  registration_endpoint: `${base}/oauth/register`,
  revocation_endpoint: `${base}/oauth/revoke`,
  response_types_supported: ['code' as const],
  grant_types_supported: ['authorization_code' as const, 'refresh_token' as const],
  code_challenge_methods_supported: ['S256' as const],
  token_endpoint_auth_methods_supported: ['none' as const],
  client_id_metadata_document_supported: true as const,
  authorization_response_iss_parameter_supported: true as const,
  scopes_supported: SCOPES,
});

/** Which resource a `resource` parameter names (RFC 8707); none names the MCP endpoint, what agents connect to. */
export function audienceOf(resource: string | undefined, base: string): Audience | undefined {
  if (resource === undefined || resource === '') return 'mcp';
  const trimmed = resource.replace(/\/+$/, '');
  if (trimmed === resourceUrl(base, 'mcp')) return 'mcp';
  if (trimmed === base) return 'api';
  return undefined;
}
