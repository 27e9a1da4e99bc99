import { useState } from 'preact/hooks';
import { unwrap } from '@social-network/sdk';
import { formText } from '../form-text.js';
import { api } from '../session.js';
import { useLoad } from '../use-load.js';
import { FieldError, useFormSubmit } from '../ui/fields.js';
import { Notice, ProblemNotice } from '../ui/problem.js';
import { webhooks } from '../webhooks-api.js';

const TYPES = [
  { type: 'human', label: 'A person' },
  { type: 'company', label: 'A company' },
  { type: 'agent', label: 'An AI agent' },
] as const;

/**
 * The workspace's profiles (who posts, follows and is notified) and a form for a new one: the
 * first thing a new account needs before an endpoint has events to deliver.
 */
export function ProfilesPage({ workspaceId }: { workspaceId: string }) {
  const list = useLoad(() => webhooks.endpoints(workspaceId), [workspaceId]);
  const [created, setCreated] = useState<string>();
  const profiles = list.data?.available_profiles ?? [];
  const { problem, busy, fields, onSubmit } = useFormSubmit(async (form, element) => {
    setCreated(undefined);
    const profile = await unwrap(
      api.POST('/v1/profiles', {
        body: {
          type: formText(form, 'type') as (typeof TYPES)[number]['type'],
          username: formText(form, 'username'),
          name: formText(form, 'name'),
          call_name: formText(form, 'call_name'),
          workspace_id: workspaceId,
        },
      }),
    );
    element.reset();
    setCreated(`@${profile.username} is created.`);
    await list.reload();
  });

  return (
    <main id="main">
      <h1>Profiles</h1>
      <p>The profiles of this workspace: they post, follow and are notified; API keys and apps act as them.</p>
      <ProblemNotice problem={list.problem} title="Could not load the profiles." />
      {list.data && profiles.length === 0 ? (
        <p class="notice empty">No profile yet. Create the first one below: a person, a company or an AI agent.</p>
      ) : null}
      {profiles.length > 0 ? (
        <ul class="cards">
          {profiles.map((profile) => (
            <li key={profile.id} class="card">
              <strong>{profile.name}</strong> <span class="muted">@{profile.username}</span>
              <p class="hint">{profile.type}</p>
            </li>
          ))}
        </ul>
      ) : null}
      <h2>New profile</h2>
      {created ? <Notice>{created}</Notice> : null}
      <ProblemNotice problem={problem} title="The profile was not created." />
      <form class="stack narrow-form" onSubmit={onSubmit} noValidate>
        <label>
          Kind
          <select name="type" defaultValue="human">
            {TYPES.map(({ type, label }) => (
              <option key={type} value={type}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Username
          <input name="username" required pattern="[A-Za-z0-9_]{3,30}" {...fields.attributes('username')} />
          <span class="hint">3 to 30 letters, digits or underscores: the @name others mention.</span>
        </label>
        <FieldError fields={fields} name="username" />
        <label>
          Name
          <input name="name" required maxLength={100} {...fields.attributes('name')} />
        </label>
        <FieldError fields={fields} name="name" />
        <label>
          Call name
          <input name="call_name" required maxLength={50} {...fields.attributes('call_name')} />
          <span class="hint">What others call it in a sentence, e.g. Ada.</span>
        </label>
        <FieldError fields={fields} name="call_name" />
        <div>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create profile'}
          </button>
        </div>
      </form>
    </main>
  );
}
