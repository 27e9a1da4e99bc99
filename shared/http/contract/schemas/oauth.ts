/** OAuth 2.1 (API.md "Agents sign in with OAuth 2.1"): the RFCs' shapes, and the consent page's calls. */
import * as z from 'zod';
import { DisplayName, Timestamp, Uuid } from './common.js';
import { Scope } from './identity.js';

const Url = z.string().meta({ description: 'An absolute URL.' });

export const ProtectedResourceMetadata = z
  .object({
    resource: Url,
    authorization_servers: z.array(Url),
    scopes_supported: z.array(Scope),
    bearer_methods_supported: z.array(z.literal('header')),
  })
  .meta({ id: 'OAuthProtectedResourceMetadata', description: 'RFC 9728 protected resource metadata.' });

export const AuthorizationServerMetadata = z
  .object({
    issuer: Url,
    authorization_endpoint: Url,
    token_endpoint: Url,
    registration_endpoint: Url,
    revocation_endpoint: Url,
    response_types_supported: z.array(z.literal('code')),
    grant_types_supported: z.array(z.enum(['authorization_code', 'refresh_token'])),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    token_endpoint_auth_methods_supported: z.array(z.literal('none')),
    client_id_metadata_document_supported: z.literal(true),
    authorization_response_iss_parameter_supported: z.literal(true),
    scopes_supported: z.array(Scope),
  })
  .meta({ id: 'OAuthAuthorizationServerMetadata', description: 'RFC 8414 authorization server metadata.' });

/**
 * An app's name as the consent page shows it to a person: the rule of workspace, profile and
 * endpoint names, so that no bidi override can reverse the rest of the page's sentence.
 */
export const ClientName = DisplayName(100);

/** What /oauth/register reads of an RFC 7591 registration request (other fields are ignored). */
export const ClientRegistrationRequest = z.object({
  redirect_uris: z.array(z.string()).min(1).max(20),
  client_name: ClientName.optional(),
  token_endpoint_auth_method: z.literal('none').optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
});

export const ClientRegistration = z
  .object({
    client_id: z.string(),
    client_id_issued_at: z.number().int(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
  })
  .meta({ id: 'OAuthClientRegistration', description: 'RFC 7591 client information (a public client: no secret).' });

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string(),
    scope: z.string(),
  })
  .meta({ id: 'OAuthTokenResponse' });

export const OAuthErrorBody = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .meta({ id: 'OAuthError', description: 'RFC 6749 / 7591 / 7009 error.' });

/** The authorization request as the consent page passes it on (the query of /oauth/authorize). */
export const AuthorizationRequestQuery = z.object({
  response_type: z.string().optional(),
  client_id: z.string().min(1).max(2048),
  redirect_uri: z.string().min(1).max(2048),
  code_challenge: z.string().max(128).optional(),
  code_challenge_method: z.string().max(16).optional(),
  state: z.string().max(2048).optional(),
  scope: z.string().max(2048).optional(),
  resource: z.string().max(2048).optional(),
});

export const AuthorizationRequestInfo = z
  .object({
    client_id: z.string(),
    client_name: z.string(),
    redirect_uri: z.string(),
    resource: z.string(),
    scopes: z.array(Scope).meta({ description: 'The requested scopes this service knows, to choose from.' }),
    workspaces: z
      .array(
        z.object({
          workspace_id: Uuid,
          profiles: z.array(z.object({ id: Uuid, username: z.string(), name: z.string() })),
        }),
      )
      .meta({
        description:
          'With a session: the workspaces the person may approve for (owner or admin), with their profiles (the first 100).',
      }),
  })
  .meta({ id: 'OAuthAuthorizationRequest' });

export const AuthorizationDecisionBody = z.strictObject({
  request: AuthorizationRequestQuery,
  approve: z.boolean(),
  workspace_id: Uuid.optional(),
  profile_ids: z.array(Uuid).max(100).default([]),
  scopes: z.array(Scope).default([]),
});

export const AuthorizationDecision = z.object({
  redirect_to: z.string().meta({ description: 'Where the browser goes next: the client, with code or error.' }),
});

export const OAuthGrant = z
  .object({
    id: Uuid,
    client_id: z.string(),
    client_name: z.string(),
    approved_by: z.object({ user_id: Uuid, email: z.string() }),
    profile_ids: z.array(Uuid),
    scopes: z.array(Scope),
    created_at: Timestamp,
    last_used_at: Timestamp,
  })
  .meta({ id: 'OAuthGrant', description: 'A connected app.' });

export const OAuthGrantParams = z.strictObject({ workspace_id: Uuid, grant_id: Uuid });
