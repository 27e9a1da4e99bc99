import { httpHandler } from '../../shared/http/handler.js';
import { formFields, oauthEndpoint, oauthJson } from '../../shared/http/oauth-answer.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { OAuthError } from '../../shared/oauth/errors.js';
import { exchangeAuthorizationCode, refreshTokens } from '../../shared/oauth/tokens.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

export const handler = httpHandler(routes.issueOAuthToken, ({ event, now }) =>
  oauthEndpoint(async () => {
    const fields = formFields(event.body, event.isBase64Encoded);
    const base = publicBaseUrl(event);
    switch (fields.grant_type) {
      case 'authorization_code':
        return oauthJson(200, await exchangeAuthorizationCode(fields, base, now));
      case 'refresh_token':
        return oauthJson(200, await refreshTokens(fields, base, now));
      case undefined:
        throw new OAuthError('invalid_request', 'grant_type is required (form-encoded body)');
      default:
        throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    }
  }),
);
