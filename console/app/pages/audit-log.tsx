import { useState } from 'preact/hooks';
import { audit, type AuditActorKind, type AuditEntry, type AuditFilters } from '../audit-api.js';
import { Time } from '../ui/format.js';
import { EmptyList, ListTable, type Column } from '../ui/list-table.js';
import { usePages } from '../ui/pager.js';
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

const AUDIT_COLUMNS: Column<AuditEntry>[] = [
  { label: 'When', cell: (entry) => <Time at={entry.at} /> },
  { label: 'Action', cell: (entry) => <code>{entry.action}</code> },
  { label: 'Actor', cell: (entry) => <bdi class="break">{actorWords(entry.actor)}</bdi> },
  { label: 'As profile', cell: (entry) => <code class="break">{entry.acting_profile_id ?? '—'}</code> },
  {
    label: 'Target',
    cell: (entry) => (
      <span class="break">
        {entry.target.type} <code>{entry.target.id}</code>
      </span>
    ),
  },
  { label: 'Network', cell: (entry) => entry.ip_prefix ?? '—' },
  { label: 'Request id', cell: (entry) => <code class="break">{entry.request_id}</code> },
];

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

  return (
    <main id="main">
      <h1 tabIndex={-1}>Audit log</h1>
      <p>
        Every change made in this workspace by a person, an API key or a connected app, newest first. Entries appear
        within a few seconds and are kept 90 days.
      </p>
      <AuditFilterBar filters={filters} onApply={apply} />
      <ProblemNotice problem={list.problem} title="Could not load the audit log." />
      <ListTable
        items={list.data?.items}
        columns={AUDIT_COLUMNS}
        rowKey={(entry) => entry.id}
        rowAttributes={(entry) => ({ 'data-audit-id': entry.id })}
        responsive
        empty={
          <EmptyList
            filtered={filters.actor_kind !== undefined || filters.action !== undefined}
            noMatch="No entries match these filters on this page of days; Older → looks further back."
            none="Nothing yet. Each change made in this workspace appears here — a post, a like, a follow, an API key created or revoked, an endpoint changed — with who made it, as which profile, from which network, and its request id."
          />
        }
        pager={{ pages, next: list.data?.next_cursor }}
      />
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
