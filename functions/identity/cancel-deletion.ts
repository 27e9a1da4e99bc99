import { sessionUser } from '../../shared/auth/session-user.js';
import { AppError } from '../../shared/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/identity.js';
import { cancelErasureJob, getErasureJob } from '../../shared/store/erasure-jobs.js';

const nothingScheduled = () =>
  new AppError('invalid_state', {
    message: 'No deletion of this account is scheduled.',
    hint: 'Only a deletion in its grace period can be cancelled (DELETE /v1/me schedules one).',
  });

/** Takes the marks off the profiles and the user; the schedule, if it still fires, finds nothing to do. */
export const handler = httpHandler(routes.cancelDeletion, async ({ auth, now }) => {
  const user = await sessionUser(auth.principal);
  if (user.deletion?.status !== 'scheduled') throw nothingScheduled();
  const job = await getErasureJob(user.deletion.job_id);
  if (!job || !(await cancelErasureJob(job, now.toISOString()))) throw nothingScheduled();
  return { cancelled: true as const };
});
