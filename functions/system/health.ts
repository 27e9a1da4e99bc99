import { httpHandler } from '../../shared/http/handler.js';
import { routes } from './routes.js';

export const handler = httpHandler(routes.health, async () => ({ status: 'ok' as const }));
