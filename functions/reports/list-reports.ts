import { routes } from '../../shared/http/contract/routes/reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentReport } from '../../shared/http/present/reports.js';
import { listReports } from '../../shared/store/reports.js';

/** The acting profile's own reports, newest first. */
export const handler = httpHandler(routes.listReports, async ({ query, auth }) => {
  const page = await listReports(auth.actingProfile.id, query);
  return { items: page.items.map(presentReport), next_cursor: page.next_cursor };
});
