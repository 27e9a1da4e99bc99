import { OCCUPATIONS } from '../../shared/domain/occupations.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';

const options = OCCUPATIONS.map((name) => ({ name }));

export const handler = httpHandler(routes.listOccupations, () => options);
