import { httpHandler } from '../../shared/http/handler.js';
import { openApiDocument } from '../../shared/http/contract/openapi.js';
import { routeList } from '../../shared/http/contract/route-table.js';
import { routes } from '../../shared/http/contract/routes/system.js';

export const handler = httpHandler(routes.getOpenApi, () => openApiDocument(routeList));
