import type { Schemas } from '@social-network/sdk';
import { href } from '../router.js';

type Me = { user: Schemas['User']; workspaces: { id: string; name: string; role: string }[] };

export const canManageWebhooks = (role: string) => role === 'owner' || role === 'admin';

/** The one workspace the user may manage webhooks in, if there is exactly one: the console opens there. */
export function onlyManagedWorkspace(me: Me): Me['workspaces'][number] | undefined {
  const managed = me.workspaces.filter((workspace) => canManageWebhooks(workspace.role));
  return managed.length === 1 ? managed[0] : undefined;
}

/** Several workspaces to manage: the user chooses. None: why there is nothing to manage here. */
export function WorkspacesPage({ me }: { me: Me }) {
  const none = !me.workspaces.some((workspace) => canManageWebhooks(workspace.role));
  return (
    <main id="main">
      <h1>{none ? 'No workspace to manage' : 'Choose a workspace'}</h1>
      <p>Signed in as {me.user.email}. Webhooks are managed by a workspace's owners and admins.</p>
      {none ? (
        <p class="notice" role="note">
          You are not an owner or admin of any workspace, so there are no webhooks for you to manage. Ask an owner of a
          workspace to make you an admin of it.
        </p>
      ) : null}
      <ul class="cards">
        {me.workspaces.map((workspace) => (
          <li key={workspace.id} class="card">
            {canManageWebhooks(workspace.role) ? (
              <a href={href({ page: 'endpoints', workspaceId: workspace.id })}>{workspace.name}</a>
            ) : (
              <span>{workspace.name}</span>
            )}
            <span class="muted"> · {workspace.role}</span>
            {canManageWebhooks(workspace.role) ? null : (
              <p class="hint">Members cannot manage webhooks; ask an owner or admin.</p>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}
