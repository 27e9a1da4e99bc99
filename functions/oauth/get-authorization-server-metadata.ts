import { httpHandler } from '../../shared/http/handler.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { authorizationServerMetadata } from '../../shared/oauth/metadata.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

export const handler = httpHandler(routes.getAuthorizationServerMetadata, ({ event }) =>
  authorizationServerMetadata(publicBaseUrl(event)),
);
