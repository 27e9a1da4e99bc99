import { httpHandler } from '../../shared/http/handler.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { protectedResourceMetadata } from '../../shared/oauth/metadata.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

export const handler = httpHandler(routes.getApiResourceMetadata, ({ event }) =>
  protectedResourceMetadata(publicBaseUrl(event), 'api'),
);
