import { httpHandler } from '../../shared/http/handler.js';
import { formFields, oauthEndpoint, oauthJson } from '../../shared/http/oauth-answer.js';
import { revokeToken } from '../../shared/oauth/tokens.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

export const handler = httpHandler(routes.revokeOAuthToken, ({ event, now }) =>
  oauthEndpoint(async () => {
    await revokeToken(formFields(event.body, event.isBase64Encoded), now);
    return oauthJson(200, {});
  }),
);
