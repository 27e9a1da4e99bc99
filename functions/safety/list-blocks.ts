import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/safety.js';
import { presentSafetyPage } from '../../shared/http/present/safety.js';
import { listBlocks } from '../../shared/store/safety.js';

/** The acting profile's blocks, newest first. */
export const handler = httpHandler(routes.listBlocks, async ({ query, auth }) =>
  presentSafetyPage(await listBlocks(auth.actingProfile.id, query)),
);
