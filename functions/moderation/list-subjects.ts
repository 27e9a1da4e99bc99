import { requireModerator } from '../../shared/auth/moderator.js';
import { routes } from '../../shared/http/contract/routes/moderation.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentReportedSubject } from '../../shared/http/present/reports.js';
import { listReportedSubjects } from '../../shared/store/reports.js';

/** The moderation queue: reported subjects of one status, most reported first. */
export const handler = httpHandler(routes.listModerationSubjects, async ({ query, auth }) => {
  await requireModerator(auth.principal);
  const page = await listReportedSubjects(query.status, query);
  return { items: page.items.map(presentReportedSubject), next_cursor: page.next_cursor };
});
