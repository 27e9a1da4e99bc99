import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { newErasureJob, startMessage } from '../../shared/domain/erasure.js';
import { erasureNowPortsFromConfig } from '../../shared/erasure/ports.js';
import { AppError, notFound } from '../../shared/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';
import { createErasureJob } from '../../shared/store/erasure-jobs.js';
import { getProfile } from '../../shared/store/profiles.js';

/**
 * An owner or admin of the profile's workspace erases it now. The checks come first, each
 * refusing before anything is written: the profile, the caller's role, the typed username.
 */
export const handler = httpHandler(
  routes.deleteProfile,
  async ({ params, body, auth, now, ports, reads }) => {
    const profile = await getProfile(params.profile_id, reads);
    // One being erased already reads as gone, here as everywhere.
    if (!profile || profile.deletion_scheduled_at) throw notFound('Profile');
    await requireOwnerOrAdmin(auth.principal, profile.workspace_id, reads);
    if (body.confirm_username.toLowerCase() !== profile.username)
      throw new AppError('invalid_request', {
        message: 'confirm_username is not the profile’s username.',
        hint: 'Type the username of the profile to delete, exactly as it reads (without @).',
      });
    const job = newErasureJob(
      now,
      { profiles: [{ id: profile.id, username: profile.username }], user: null, workspace_ids: [] },
      'now',
    );
    await createErasureJob(job, now.toISOString());
    await ports.erasure.send([startMessage(job)]);
    return { deletion: { status: 'in_progress' as const } };
  },
  { ports: erasureNowPortsFromConfig },
);
