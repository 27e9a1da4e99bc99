import { oauth, type ConnectedApp } from '../oauth-api.js';
import { ConfirmDialog, useConfirmedAction } from '../ui/confirm.js';
import { Time } from '../ui/format.js';
import { Notice, ProblemNotice } from '../ui/problem.js';
import { useLoad } from '../use-load.js';
import { scopeSentence } from '../scope-words.js';

/** A workspace's connected apps (OAuth grants), each disconnectable at once. */
export function AppsPage({ workspaceId }: { workspaceId: string }) {
  const loaded = useLoad(() => oauth.apps(workspaceId), [workspaceId]);
  const disconnect = useConfirmedAction(async (app: ConnectedApp) => {
    await oauth.disconnect(workspaceId, app.id);
    await loaded.reload();
    return `${app.client_name} is disconnected: its tokens no longer work.`;
  });

  const apps = loaded.data?.items ?? [];
  return (
    <main id="main">
      <h1>Connected apps</h1>
      <p>Agents and tools that signed in with OAuth and may act in this workspace, as the profiles you chose.</p>
      {disconnect.done ? <Notice>{disconnect.done}</Notice> : null}
      <ProblemNotice
        problem={loaded.problem ?? disconnect.problem}
        title="Could not load or change the connected apps."
      />
      {loaded.data && apps.length === 0 ? (
        <div class="notice empty">
          <p>
            <strong>No app is connected.</strong> An app connects when you add this server to it by its URL (
            <code>{new URL('../mcp', location.href).href}</code> in Claude, ChatGPT or VS Code): it sends you to a page
            of this console that asks which workspace, profiles and permissions it may have, and it appears here once
            you approve.
          </p>
        </div>
      ) : null}
      {apps.length > 0 ? (
        <table class="responsive">
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Approved by</th>
              <th scope="col">Profiles</th>
              <th scope="col">Scopes</th>
              <th scope="col">Connected</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {apps.map((app) => (
              <tr key={app.id}>
                <td data-label="App">
                  <div>
                    <bdi>{app.client_name}</bdi>
                    <div class="muted break">
                      <code>{app.client_id}</code>
                    </div>
                  </div>
                </td>
                <td data-label="Approved by">{app.approved_by.email}</td>
                <td data-label="Profiles">{app.profile_ids.length}</td>
                <td data-label="Scopes">
                  {app.scopes.map((scope) => (
                    <code key={scope} class="tag" title={scopeSentence(scope)}>
                      {scope}
                    </code>
                  ))}
                </td>
                <td data-label="Connected">
                  <Time at={app.created_at} />
                </td>
                <td data-label="Last used">
                  <Time at={app.last_used_at} />
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => disconnect.ask(app)}>
                    Disconnect
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
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
