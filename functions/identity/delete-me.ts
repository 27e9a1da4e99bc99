import { requireCurrentPassword } from '../../shared/auth/current-password.js';
import { sessionUser } from '../../shared/auth/session-user.js';
import { newErasureJob, startMessage } from '../../shared/domain/erasure.js';
import { deletionPortsFromConfig } from '../../shared/erasure/ports.js';
import { AppError } from '../../shared/errors.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/identity.js';
import { cancelErasureJob, createErasureJob, getErasureJob } from '../../shared/store/erasure-jobs.js';
import { accountSubjects } from '../../shared/store/erasure-subjects.js';

/**
 * The password first (a wrong one changes nothing). A deletion already scheduled answers as it is
 * for `after_grace`, and gives way to a new one for `now`.
 */
export const handler = httpHandler(
  routes.deleteMe,
  async ({ body, auth, now, ports }) => {
    const user = await sessionUser(auth.principal);
    await requireCurrentPassword(user, body.password);
    const at = now.toISOString();
    const scheduled = user.deletion;
    if (scheduled?.status === 'in_progress')
      throw new AppError('invalid_state', {
        message: 'The account is being erased.',
        hint: 'Nothing to do: the erasure is running.',
      });
    if (scheduled && body.when === 'after_grace')
      return withHint(
        { deletion: { status: scheduled.status, scheduled_for: scheduled.scheduled_for } },
        'The deletion was already scheduled; nothing changed. POST /v1/me/deletion/cancel cancels it.',
      );
    if (scheduled) {
      const previous = await getErasureJob(scheduled.job_id);
      if (previous) await cancelErasureJob(previous, at);
    }
    const job = newErasureJob(now, await accountSubjects(user), body.when);
    await createErasureJob(job, at);
    if (job.status === 'in_progress') await ports.erasure.send([startMessage(job)]);
    else await ports.erasureScheduler.schedule(startMessage(job), new Date(job.scheduled_for));
    return { deletion: { status: job.status, scheduled_for: job.scheduled_for } };
  },
  { ports: deletionPortsFromConfig },
);
