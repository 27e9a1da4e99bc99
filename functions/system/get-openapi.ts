import { httpHandler } from '../../shared/http/handler.js';
import { openApiDocument } from '../../shared/http/contract/openapi.js';
import { routes } from './routes.js';

export const handler = httpHandler(
  routes.getOpenApi,
  async () => openApiDocument() as unknown as Record<string, unknown>,
);
