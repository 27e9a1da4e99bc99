import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/system.js';

export const handler = httpHandler(routes.health, () => ({ status: 'ok' as const }));
