import { formText } from '../form-text.js';
import { href } from '../router.js';
import { FieldError, useFormSubmit } from '../ui/fields.js';
import { ProblemNotice } from '../ui/problem.js';
import type { Endpoint, EndpointInput, EndpointList, EventTypeEntry } from '../webhooks-api.js';

/** Empty means no limit (null); anything else goes to the API as typed, for it to accept or refuse. */
const rateLimit = (raw: string): number | null => (raw.trim() === '' ? null : Number(raw));

/** Name, URL, event types and profiles of an endpoint: the create form and the edit form. */
export function EndpointForm(props: {
  workspaceId: string;
  endpoint?: Endpoint;
  eventTypes: EventTypeEntry[];
  profiles: EndpointList['available_profiles'];
  submitLabel: string;
  disabled?: boolean;
  onSubmit: (input: EndpointInput) => Promise<void>;
}) {
  const { problem, busy, fields, onSubmit } = useFormSubmit((form) =>
    props.onSubmit({
      name: formText(form, 'name'),
      url: formText(form, 'url'),
      event_types: form.getAll('event_types').map(String) as EndpointInput['event_types'],
      profile_ids: form.getAll('profile_ids').map(String),
      rate_limit_per_second: rateLimit(formText(form, 'rate_limit_per_second')),
    }),
  );
  const selectedTypes = new Set<string>(props.endpoint?.event_types ?? []);
  const selectedProfiles = new Set(
    props.endpoint?.profiles.map((p) => p.id) ?? (props.profiles.length === 1 ? [props.profiles[0]!.id] : []),
  );

  // Empty required fields are marked here; every other rule is the API's, whose hint names the field it refused.
  return (
    <form onSubmit={onSubmit} class="stack" noValidate>
      <ProblemNotice problem={problem} title="The endpoint was not saved." />
      <fieldset disabled={props.disabled || busy} class="stack">
        <label>
          Name
          <input
            name="name"
            required
            maxLength={80}
            defaultValue={props.endpoint?.name ?? ''}
            {...fields.attributes('name')}
          />
        </label>
        <FieldError fields={fields} name="name" />
        <label>
          URL
          <input
            name="url"
            type="url"
            inputMode="url"
            required
            placeholder="https://example.com/webhooks"
            defaultValue={props.endpoint?.url ?? ''}
            {...fields.attributes('url')}
          />
        </label>
        <FieldError fields={fields} name="url" />
        <fieldset class="choices">
          <legend>Event types</legend>
          <FieldError fields={fields} name="event_types" />
          {props.eventTypes.map((entry) => (
            <label key={entry.type} class="choice">
              <input
                type="checkbox"
                name="event_types"
                value={entry.type}
                defaultChecked={selectedTypes.has(entry.type)}
              />
              <span>
                <code>{entry.type}</code> <span class="muted">{entry.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset class="choices">
          <legend>Profiles</legend>
          <FieldError fields={fields} name="profile_ids" />
          {props.profiles.length === 0 ? (
            <p class="hint">
              This workspace has no profiles yet:{' '}
              <a href={href({ page: 'profiles', workspaceId: props.workspaceId })}>create one in Profiles</a>, then come
              back. An endpoint delivers the events of the profiles it names.
            </p>
          ) : null}
          {props.profiles.map((profile) => (
            <label key={profile.id} class="choice">
              <input
                type="checkbox"
                name="profile_ids"
                value={profile.id}
                defaultChecked={selectedProfiles.has(profile.id)}
              />
              <span>
                {profile.name} <span class="muted">@{profile.username}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label>
          Rate limit (deliveries per second, optional)
          <input
            name="rate_limit_per_second"
            type="number"
            inputMode="numeric"
            min={1}
            max={1000}
            step={1}
            placeholder="No limit"
            defaultValue={props.endpoint?.rate_limit_per_second?.toString() ?? ''}
          />
          <span class="hint">
            The sender spaces its attempts to this rate; none are dropped. Empty: no limit of its own.
          </span>
        </label>
        <div>
          <button type="submit" class="primary">
            {busy ? 'Saving…' : props.submitLabel}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
