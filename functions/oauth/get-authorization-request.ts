import { AppError } from '../../shared/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { checkAuthorizationRequest } from '../../shared/oauth/authorization-request.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

/** The consent page asks before it shows anything: an untrusted client or redirect URI is shown, never followed. */
export const handler = httpHandler(routes.getAuthorizationRequest, async ({ query, event }) => {
  const checked = await checkAuthorizationRequest(query, publicBaseUrl(event));
  if (checked.kind === 'untrusted')
    throw new AppError('invalid_request', {
      message: `This sign-in request cannot be trusted: ${checked.reason}.`,
      hint: 'Start the connection again from the app; if it keeps failing, the app is misconfigured.',
    });
  if (checked.kind === 'refused')
    throw new AppError('invalid_request', { message: `The sign-in request is invalid: ${checked.description}.` });
  const { client, redirectUri, resource, scopes } = checked.request;
  return { client_id: client.client_id, client_name: client.client_name, redirect_uri: redirectUri, resource, scopes };
});
