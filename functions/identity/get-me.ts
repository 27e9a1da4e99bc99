import { beingErased } from '../../shared/auth/session-user.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentUser } from '../../shared/http/present/identity.js';
import { getUser } from '../../shared/store/users.js';
import { listMemberships } from '../../shared/store/workspaces.js';
import { routes } from '../../shared/http/contract/routes/identity.js';

export const handler = httpHandler(routes.getMe, async ({ auth }) => {
  const [user, memberships] = await Promise.all([
    getUser(auth.principal.userId),
    listMemberships(auth.principal.userId),
  ]);
  if (!user || beingErased(user)) throw new ApiError('unauthorized', { hint: 'The account no longer exists.' });
  return {
    user: presentUser(user),
    workspaces: memberships.map((m) => ({ id: m.workspace_id, name: m.workspace_name, role: m.role })),
    platform_role: user.platform_role ?? null,
    deletion:
      user.deletion?.status === 'scheduled'
        ? { status: 'scheduled' as const, scheduled_for: user.deletion.scheduled_for }
        : null,
  };
});
