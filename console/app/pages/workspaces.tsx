import type { Schemas } from '../../api/client.js';
import { href } from '../router.js';

type Me = { user: Schemas['User']; workspaces: { id: string; name: string; role: string }[] };

export const canManageWebhooks = (role: string) => role === 'owner' || role === 'admin';

export function WorkspacesPage({ me }: { me: Me }) {
  return (
    <main id="main">
      <h1>Choose a workspace</h1>
      <p>Signed in as {me.user.email}. Webhooks are managed by a workspace's owners and admins.</p>
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
