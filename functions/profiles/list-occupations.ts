import { OCCUPATIONS } from '../../shared/domain/occupations.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from './routes.js';

const options = OCCUPATIONS.map((name) => ({ name }));

export const handler = httpHandler(routes.listOccupations, async () => options);
