import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { apiKeys, type ApiKey } from '../api-keys-api.js';
import { formText } from '../form-text.js';
import { href } from '../router.js';
import { SCOPE_CHOICES, scopeSentence } from '../scope-words.js';
import { ConfirmDialog, useConfirmedAction } from '../ui/confirm.js';
import { FieldError, useFormSubmit } from '../ui/fields.js';
import { Time } from '../ui/format.js';
import { ListTable } from '../ui/list-table.js';
import { Notice, ProblemNotice } from '../ui/problem.js';
import { ScopeTags } from '../ui/scope-tags.js';
import { SecretBox } from '../ui/secret-box.js';
import { useLoad } from '../use-load.js';
import { webhooks } from '../webhooks-api.js';

type Profile = { id: string; name: string; username: string };

/**
 * A workspace's API keys: the list (never a secret), a form for a new one whose full key is shown
 * once, and revocation after a confirmation (the key stops working at once).
 */
export function ApiKeysPage({ workspaceId }: { workspaceId: string }) {
  const keys = useLoad(() => apiKeys.list(workspaceId), [workspaceId]);
  // The workspace's profiles come with its endpoint list (as on the Profiles page): no call of their own.
  const profiles = useLoad(() => webhooks.endpoints(workspaceId), [workspaceId]);
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const available: Profile[] = profiles.data?.available_profiles ?? [];

  const revoke = useConfirmedAction(async (key: ApiKey) => {
    await apiKeys.revoke(workspaceId, key.id);
    await keys.reload();
    return `${key.name} is revoked: it no longer works.`;
  });

  return (
    <main id="main">
      <h1>API keys</h1>
      <p>
        A key lets a program call the API for this workspace, as the profiles you attach and with the scopes you choose:
        it sends <code>Authorization: Bearer sk_…</code> and the profile it acts as in <code>X-Profile-Id</code>.
      </p>
      {created ? (
        <section class="panel" aria-labelledby="key-title">
          <h2 id="key-title">{created.name} is created: its key</h2>
          <SecretBox
            secret={created.key}
            label="API key"
            note="Shown only now: the API keeps only a hash of it. Store it where your program reads its secrets."
          />
          <button type="button" onClick={() => setCreated(undefined)}>
            I have saved it
          </button>
        </section>
      ) : null}
      {revoke.done ? <Notice>{revoke.done}</Notice> : null}
      <ProblemNotice problem={keys.problem ?? revoke.problem} title="Could not load or change the API keys." />
      <KeyTable
        keys={keys.data?.items}
        profiles={available}
        onRevoke={revoke.ask}
        empty={
          <p class="notice empty">
            No API key yet. Create one below: name it after the program that will use it and give it only the scopes it
            needs.
          </p>
        }
      />
      <h2>New API key</h2>
      <NewKeyForm
        workspaceId={workspaceId}
        profiles={available}
        onCreated={async (name, key) => {
          setCreated({ name, key });
          await keys.reload();
        }}
      />
      <ConfirmDialog
        open={revoke.asking !== undefined}
        title={`Revoke ${revoke.asking?.name ?? ''}?`}
        confirmLabel="Revoke"
        onConfirm={() => void revoke.confirm()}
        onCancel={revoke.cancel}
      >
        <p>Programs using it are refused from the next request on (401); this cannot be undone.</p>
      </ConfirmDialog>
    </main>
  );
}

function KeyTable(props: {
  keys: ApiKey[] | undefined;
  profiles: Profile[];
  onRevoke: (key: ApiKey) => void;
  empty: ComponentChildren;
}) {
  const username = (id: string) => props.profiles.find((p) => p.id === id)?.username;
  return (
    <ListTable
      items={props.keys}
      columns={[
        { label: 'Name', cell: (key) => key.name },
        { label: 'Prefix', cell: (key) => <code>{key.prefix}…</code> },
        { label: 'Scopes', cell: (key) => <ScopeTags scopes={key.scopes} /> },
        {
          label: 'Profiles',
          cell: (key) => (
            <>
              {key.profile_ids.length === 0 ? <span class="muted">none</span> : null}
              {key.profile_ids.map((id) => (
                <div key={id}>{username(id) ? `@${username(id)}` : <code>{id}</code>}</div>
              ))}
            </>
          ),
        },
        { label: 'Created', cell: (key) => <Time at={key.created_at} /> },
        {
          label: 'Actions',
          hidden: true,
          cell: (key) =>
            key.revoked_at ? (
              <span class="muted">
                Revoked <Time at={key.revoked_at} />
              </span>
            ) : (
              <button type="button" class="danger" onClick={() => props.onRevoke(key)}>
                Revoke
              </button>
            ),
        },
      ]}
      rowKey={(key) => key.id}
      responsive
      empty={props.empty}
    />
  );
}

function NewKeyForm(props: {
  workspaceId: string;
  profiles: Profile[];
  onCreated: (name: string, key: string) => Promise<void>;
}) {
  const { problem, busy, fields, onSubmit } = useFormSubmit(async (form, element) => {
    const created = await apiKeys.create(props.workspaceId, {
      name: formText(form, 'name'),
      scopes: form.getAll('scopes').map(String) as ApiKey['scopes'],
      profile_ids: form.getAll('profile_ids').map(String),
    });
    element.reset();
    await props.onCreated(created.api_key.name, created.key);
  });
  return (
    <form class="stack" onSubmit={onSubmit} noValidate>
      <ProblemNotice problem={problem} title="The API key was not created." />
      <fieldset disabled={busy} class="stack">
        <label>
          Name
          <input name="name" required maxLength={100} {...fields.attributes('name')} />
          <span class="hint">Which program uses it, e.g. Publishing bot.</span>
        </label>
        <FieldError fields={fields} name="name" />
        <fieldset class="choices" name="scopes" data-required {...fields.attributes('scopes')}>
          <legend>What it may do (one at least)</legend>
          <FieldError fields={fields} name="scopes" />
          {SCOPE_CHOICES.map((scope) => (
            <label key={scope} class="choice">
              <input type="checkbox" name="scopes" value={scope} />
              <span>
                {scopeSentence(scope)} <code class="muted">{scope}</code>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset class="choices">
          <legend>Profiles it may act as</legend>
          <FieldError fields={fields} name="profile_ids" />
          {props.profiles.length === 0 ? (
            <p class="hint">
              This workspace has no profiles yet:{' '}
              <a href={href({ page: 'profiles', workspaceId: props.workspaceId })}>create one in Profiles</a>. A key
              without profiles can create them (with <code>profiles:write</code>), and they are attached to it.
            </p>
          ) : null}
          {props.profiles.map((profile) => (
            <label key={profile.id} class="choice">
              <input type="checkbox" name="profile_ids" value={profile.id} />
              <span>
                {profile.name} <span class="muted">@{profile.username}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" class="primary">
            {busy ? 'Creating…' : 'Create API key'}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
