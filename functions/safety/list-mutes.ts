import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/safety.js';
import { presentSafetyPage } from '../../shared/http/present/safety.js';
import { listMutes } from '../../shared/store/safety.js';

/** The acting profile's mutes, newest first. */
export const handler = httpHandler(routes.listMutes, async ({ query, auth }) =>
  presentSafetyPage(await listMutes(auth.actingProfile.id, query)),
);
