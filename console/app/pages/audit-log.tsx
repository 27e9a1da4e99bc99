import { useState } from 'preact/hooks';
import { audit, type AuditActorKind, type AuditEntry, type AuditFilters } from '../audit-api.js';
import { Time } from '../ui/format.js';
import { Pager, usePages } from '../ui/pager.js';
import { ProblemNotice } from '../ui/problem.js';
import { useLoad } from '../use-load.js';

const PAGE_SIZE = 20;

/** The actor kinds as a person reads them. */
const ACTOR_KINDS: Record<AuditActorKind, string> = {
  session: 'A person (console or session)',
  api_key: 'An API key',
  oauth: 'A connected app',
};

/** Who wrote, in words: the kind, and the id or app name that tells which one. */
function actorWords(actor: AuditEntry['actor']): string {
  if (actor.kind === 'oauth') return `App ${actor.client_name ?? actor.oauth_grant_id ?? ''}`;
  if (actor.kind === 'api_key') return `API key ${actor.api_key_id ?? ''}`;
  return `User ${actor.user_id ?? ''}`;
}

/** Every write by the workspace's credentials, newest first, filtered by actor kind and action, paged. */
export function AuditLogPage({ workspaceId }: { workspaceId: string }) {
  const [filters, setFilters] = useState<AuditFilters>({});
  const pages = usePages();
  // Applying reads again even with the same filters: new entries keep arriving.
  const [applied, setApplied] = useState(0);
  const { cursor } = pages;
  const list = useLoad(
    () => audit.list(workspaceId, filters, { limit: PAGE_SIZE, cursor }),
    [workspaceId, JSON.stringify(filters), cursor, applied],
  );
  const apply = (next: AuditFilters) => {
    setFilters(next);
    pages.reset();
    setApplied(applied + 1);
  };
  const items = list.data?.items ?? [];
  const filtered = filters.actor_kind !== undefined || filters.action !== undefined;

  return (
    <main id="main">
      <h1 tabIndex={-1}>Audit log</h1>
      <p>
        Every change made in this workspace by a person, an API key or a connected app, newest first. Entries appear
        within a few seconds and are kept 90 days.
      </p>
      <AuditFilterBar filters={filters} onApply={apply} />
      <ProblemNotice problem={list.problem} title="Could not load the audit log." />
      {list.data && items.length === 0 ? (
        <p class="empty">
          {filtered
            ? 'No entries match these filters on this page of days; Older → looks further back.'
            : 'Nothing yet. Each change made in this workspace appears here — a post, a like, a follow, an API key created or revoked, an endpoint changed — with who made it, as which profile, from which network, and its request id.'}
        </p>
      ) : null}
      {items.length > 0 ? (
        <table class="responsive">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">Actor</th>
              <th scope="col">As profile</th>
              <th scope="col">Target</th>
              <th scope="col">Network</th>
              <th scope="col">Request id</th>
            </tr>
          </thead>
          <tbody>
            {items.map((entry) => (
              <tr key={entry.id} data-audit-id={entry.id}>
                <td data-label="When">
                  <Time at={entry.at} />
                </td>
                <td data-label="Action">
                  <code>{entry.action}</code>
                </td>
                <td data-label="Actor">
                  <bdi class="break">{actorWords(entry.actor)}</bdi>
                </td>
                <td data-label="As profile">
                  <code class="break">{entry.acting_profile_id ?? '—'}</code>
                </td>
                <td data-label="Target">
                  <span class="break">
                    {entry.target.type} <code>{entry.target.id}</code>
                  </span>
                </td>
                <td data-label="Network">{entry.ip_prefix ?? '—'}</td>
                <td data-label="Request id">
                  <code class="break">{entry.request_id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager pages={pages} next={list.data?.next_cursor} />
    </main>
  );
}

function AuditFilterBar(props: { filters: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const [kind, setKind] = useState(props.filters.actor_kind ?? '');
  const [action, setAction] = useState(props.filters.action ?? '');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    props.onApply({
      actor_kind: (kind || undefined) as AuditActorKind | undefined,
      action: action.trim() || undefined,
    });
  };
  const clear = (event: Event) => {
    event.preventDefault();
    setKind('');
    setAction('');
    props.onApply({});
  };
  return (
    <form class="filters" onSubmit={submit} onReset={clear} aria-label="Filter the audit log">
      <label>
        Actor
        <select name="actor_kind" value={kind} onInput={(event) => setKind(event.currentTarget.value)}>
          <option value="">Any</option>
          {Object.entries(ACTOR_KINDS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Action
        <input
          name="action"
          placeholder="e.g. createPost"
          value={action}
          onInput={(event) => setAction(event.currentTarget.value)}
        />
      </label>
      <div class="actions">
        <button type="submit">Apply</button>
        <button type="reset">Clear</button>
      </div>
    </form>
  );
}
