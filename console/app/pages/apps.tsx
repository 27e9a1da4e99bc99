import { oauth, type ConnectedApp } from '../oauth-api.js';
import { ConfirmDialog, useConfirmedAction } from '../ui/confirm.js';
import { Time } from '../ui/format.js';
import { ListTable } from '../ui/list-table.js';
import { Notice, ProblemNotice } from '../ui/problem.js';
import { ScopeTags } from '../ui/scope-tags.js';
import { useLoad } from '../use-load.js';

/** A workspace's connected apps (OAuth grants), each disconnectable at once. */
export function AppsPage({ workspaceId }: { workspaceId: string }) {
  const loaded = useLoad(() => oauth.apps(workspaceId), [workspaceId]);
  const disconnect = useConfirmedAction(async (app: ConnectedApp) => {
    await oauth.disconnect(workspaceId, app.id);
    await loaded.reload();
    return `${app.client_name} is disconnected: its tokens no longer work.`;
  });

  return (
    <main id="main">
      <h1>Connected apps</h1>
      <p>Agents and tools that signed in with OAuth and may act in this workspace, as the profiles you chose.</p>
      {disconnect.done ? <Notice>{disconnect.done}</Notice> : null}
      <ProblemNotice
        problem={loaded.problem ?? disconnect.problem}
        title="Could not load or change the connected apps."
      />
      <ListTable
        items={loaded.data?.items}
        columns={[
          {
            label: 'App',
            cell: (app) => (
              <div>
                <bdi>{app.client_name}</bdi>
                <div class="muted break">
                  <code>{app.client_id}</code>
                </div>
              </div>
            ),
          },
          { label: 'Approved by', cell: (app) => app.approved_by.email },
          { label: 'Profiles', cell: (app) => app.profile_ids.length },
          { label: 'Scopes', cell: (app) => <ScopeTags scopes={app.scopes} /> },
          { label: 'Connected', cell: (app) => <Time at={app.created_at} /> },
          { label: 'Last used', cell: (app) => <Time at={app.last_used_at} /> },
          {
            label: 'Actions',
            hidden: true,
            cell: (app) => (
              <button type="button" class="danger" onClick={() => disconnect.ask(app)}>
                Disconnect
              </button>
            ),
          },
        ]}
        rowKey={(app) => app.id}
        responsive
        empty={
          <div class="notice empty">
            <p>
              <strong>No app is connected.</strong> An app connects when you add this server to it by its URL (
              <code>{new URL('../mcp', location.href).href}</code> in Claude, ChatGPT or VS Code): it sends you to a
              page of this console that asks which workspace, profiles and permissions it may have, and it appears here
              once you approve.
            </p>
          </div>
        }
      />
      <ConfirmDialog
        open={disconnect.asking !== undefined}
        title={`Disconnect ${disconnect.asking?.client_name ?? ''}?`}
        confirmLabel="Disconnect"
        onConfirm={() => void disconnect.confirm()}
        onCancel={disconnect.cancel}
      >
        <p>Its access and refresh tokens stop working at once; it must ask again to reconnect.</p>
      </ConfirmDialog>
    </main>
  );
}
