import { newReport } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { routes } from '../../shared/http/contract/routes/reports.js';
import { httpHandler, withStatus } from '../../shared/http/handler.js';
import { presentReport, presentSnapshot } from '../../shared/http/present/reports.js';
import { ownerOf, readReportable } from '../../shared/moderation/subjects.js';
import { fileReport } from '../../shared/store/reports.js';

const NOT_FOUND_AS = { post: 'Post', comment: 'Comment', profile: 'Profile', message: 'Message' } as const;

/** Files a report of a subject the acting profile can read; a second open one answers the first (200). */
export const handler = httpHandler(routes.createReport, async ({ body, auth, now }) => {
  const reporter = auth.actingProfile;
  const subject = await readReportable(body, reporter);
  if (!subject) throw notFound(NOT_FOUND_AS[body.subject_type]);
  const { created, report } = await fileReport(newReport(now, reporter.id, body), {
    snapshot: presentSnapshot(subject),
    owner_profile_id: ownerOf(subject),
  });
  const answer = { report: presentReport(report) };
  return created
    ? answer
    : withStatus(answer, 200, 'You already reported this subject and it is still open: this is that report.');
});
