import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { formText } from '../form-text.js';
import { oauth, type RequestParams } from '../oauth-api.js';
import { asProblem, useLoad } from '../use-load.js';
import { ProblemNotice } from '../ui/problem.js';
import { scopeSentence } from '../scope-words.js';

type Me = { user: { email: string }; workspaces: { id: string; name: string; role: string }[] };

/**
 * The consent page of GET /oauth/authorize: which workspace the app may act in, as which of its
 * profiles, with which of the scopes it asked for. An untrusted client or redirect URI is shown
 * here and never followed.
 */
export function ConsentPage({ query, me }: { query: string; me: Me }) {
  const request: RequestParams = Object.fromEntries(new URLSearchParams(query));
  const loaded = useLoad(() => oauth.check(request), [query]);
  const [workspaceId, setWorkspaceId] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [busy, setBusy] = useState(false);

  if (loaded.problem)
    return (
      <main class="narrow" id="main">
        <h1>This app cannot sign in</h1>
        <ProblemNotice problem={loaded.problem} title="The sign-in request was refused." />
        <p>Nothing was shared. Close this page and start again from the app.</p>
      </main>
    );
  const info = loaded.data;
  if (!info) return <main id="main" aria-busy="true" />;

  const nameOf = (id: string) => me.workspaces.find((w) => w.id === id)?.name ?? id;
  const chosen = info.workspaces.find((w) => w.workspace_id === (workspaceId ?? info.workspaces[0]?.workspace_id));

  const send = async (approve: boolean, form?: HTMLFormElement) => {
    setBusy(true);
    setProblem(undefined);
    try {
      const data = form ? new FormData(form) : undefined;
      const decided = await oauth.decide(
        request,
        approve && data
          ? {
              approve,
              workspace_id: formText(data, 'workspace_id'),
              profile_ids: data.getAll('profile_ids').map(String),
              scopes: data.getAll('scopes').map(String) as typeof info.scopes,
            }
          : { approve: false },
      );
      location.assign(decided.redirect_to);
    } catch (error) {
      setProblem(asProblem(error));
      setBusy(false);
    }
  };

  return (
    <main class="narrow" id="main">
      <h1>
        <bdi>{info.client_name}</bdi> asks for access
      </h1>
      <p>
        The app{' '}
        <strong>
          <bdi>{info.client_name}</bdi>
        </strong>{' '}
        asks to act for you through <code>{info.resource}</code>. Choose the workspace, the profiles it may act as and
        what it may do; nothing is shared unless you approve. You go back to{' '}
        <code>{new URL(info.redirect_uri).origin}</code> afterwards.
      </p>
      <p class="muted">Signed in as {me.user.email}. You can disconnect the app at any time in Connected apps.</p>
      <ProblemNotice problem={problem} title="Could not approve." />
      {info.workspaces.length === 0 ? (
        <p class="notice" role="note">
          Only a workspace's owners and admins can connect apps, and you are neither in any workspace.
        </p>
      ) : null}
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void send(true, event.currentTarget);
        }}
      >
        <fieldset class="choices">
          <legend>Workspace</legend>
          {info.workspaces.map((w, i) => (
            <label key={w.workspace_id} class="choice">
              <input
                type="radio"
                name="workspace_id"
                value={w.workspace_id}
                checked={chosen ? chosen.workspace_id === w.workspace_id : i === 0}
                onChange={() => setWorkspaceId(w.workspace_id)}
              />
              <span>{nameOf(w.workspace_id)}</span>
            </label>
          ))}
        </fieldset>
        <fieldset class="choices">
          <legend>Profiles it may act as</legend>
          {chosen && chosen.profiles.length === 0 ? <p class="hint">This workspace has no profiles yet.</p> : null}
          {chosen?.profiles.map((profile) => (
            <label key={profile.id} class="choice">
              <input type="checkbox" name="profile_ids" value={profile.id} defaultChecked />
              <span>
                @{profile.username} <span class="muted">{profile.name}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset class="choices">
          <legend>What it may do</legend>
          {info.scopes.map((scope) => (
            <label key={scope} class="choice">
              <input type="checkbox" name="scopes" value={scope} defaultChecked />
              <span>
                {scopeSentence(scope)} <code class="muted">{scope}</code>
              </span>
            </label>
          ))}
        </fieldset>
        <div class="actions">
          <button type="button" disabled={busy} onClick={() => void send(false)}>
            Deny
          </button>
          <button type="submit" class="primary" disabled={busy || !chosen}>
            Approve
          </button>
        </div>
      </form>
    </main>
  );
}
