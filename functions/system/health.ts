import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/system.js';

export const handler = httpHandler(routes.health, async () => ({ status: 'ok' as const }));
