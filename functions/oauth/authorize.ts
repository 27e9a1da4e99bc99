import { httpHandler } from '../../shared/http/handler.js';
import { redirectTo } from '../../shared/http/oauth-answer.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { checkAuthorizationRequest, clientRedirect } from '../../shared/oauth/authorization-request.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

/** Where the console shows the consent page, with the request's parameters. */
export const CONSENT_PAGE = '/console/#/oauth/authorize';

/**
 * The authorization endpoint. A request with a trusted client and redirect URI but another problem
 * (no PKCE, plain PKCE, a foreign resource) goes straight back to the client with its error; every
 * other request goes to the consent page, which shows an untrusted client's problem itself.
 */
export const handler = httpHandler(routes.authorize, async ({ event }) => {
  const query = event.queryStringParameters ?? {};
  const base = publicBaseUrl(event);
  const checked = await checkAuthorizationRequest(query, base);
  if (checked.kind === 'refused')
    return redirectTo(
      clientRedirect(checked.redirectUri, base, {
        error: checked.error,
        error_description: checked.description,
        state: checked.state,
      }),
    );
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return redirectTo(`${base}${CONSENT_PAGE}?${params.toString()}`);
});
