import { actionApplies } from '../../shared/domain/reports.js';
import { requireModerator } from '../../shared/auth/moderator.js';
import { AppError, notFound } from '../../shared/http/contract/errors.js';
import { routes } from '../../shared/http/contract/routes/moderation.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentReportedSubject } from '../../shared/http/present/reports.js';
import { actionItems } from '../../shared/moderation/effects.js';
import { resolveReports } from '../../shared/store/reports.js';

/** Resolves every open report of the subject with one action, in one transaction with its effect. */
export const handler = httpHandler(routes.resolveModerationSubject, async ({ params, body, auth, now }) => {
  await requireModerator(auth.principal);
  if (!actionApplies(params.subject_type, body.action)) {
    throw new AppError('invalid_request', {
      message: 'remove_content applies to posts and comments only.',
      hint: 'Use dismiss or suspend_profile for a profile or a message.',
    });
  }
  const resolved = await resolveReports(params, body.action, body.note ?? null, now, (subject) =>
    actionItems(subject, body.action, now),
  );
  if (!resolved) throw notFound('Open reports of this subject');
  return { subject: presentReportedSubject(resolved) };
});
