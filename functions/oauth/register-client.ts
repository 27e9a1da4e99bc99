import { newId } from '../../shared/domain/ids.js';
import { redirectUriProblem } from '../../shared/domain/oauth.js';
import { httpHandler } from '../../shared/http/handler.js';
import { oauthEndpoint, oauthJson } from '../../shared/http/oauth-answer.js';
import { OAuthError } from '../../shared/oauth/errors.js';
import { ClientRegistrationRequest } from '../../shared/http/contract/schemas/oauth.js';
import { putOAuthClient } from '../../shared/store/oauth.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

function registration(body: string | undefined) {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object (RFC 7591).');
  }
  const parsed = ClientRegistrationRequest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    if (field.startsWith('redirect_uris')) throw new OAuthError('invalid_redirect_uri', `${field}: ${issue.message}`);
    throw new OAuthError(
      'invalid_client_metadata',
      field === 'token_endpoint_auth_method'
        ? 'token_endpoint_auth_method must be "none": only public clients register here (PKCE stands in for a secret).'
        : `${field}: ${issue.message}`,
    );
  }
  const bad = parsed.data.redirect_uris.map(redirectUriProblem).find(Boolean);
  if (bad)
    throw new OAuthError(
      'invalid_redirect_uri',
      `${bad}: redirect URIs are https, or http on a loopback address, without a fragment.`,
    );
  return parsed.data;
}

export const handler = httpHandler(routes.registerOAuthClient, ({ event, now }) =>
  oauthEndpoint(async () => {
    const request = registration(event.body);
    const client = {
      client_id: newId(),
      client_name: request.client_name ?? 'Unnamed app',
      redirect_uris: request.redirect_uris,
      created_at: now.toISOString(),
    };
    await putOAuthClient(client);
    return oauthJson(201, {
      client_id: client.client_id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      client_name: client.client_name,
      redirect_uris: client.redirect_uris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
  }),
);
