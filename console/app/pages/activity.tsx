import { useState } from 'preact/hooks';
import {
  DELIVERY_STATUSES,
  deliveryQuery,
  fromLocalInput,
  hasFilters,
  toLocalInput,
  type DeliveryFilters,
} from '../delivery-filters.js';
import { href } from '../router.js';
import { useInterval, useLoad } from '../use-load.js';
import { StatusBadge, Time } from '../ui/format.js';
import { EmptyList, ListTable, type Column } from '../ui/list-table.js';
import { usePages } from '../ui/pager.js';
import { ProblemNotice } from '../ui/problem.js';
import { webhooks, type Delivery, type Endpoint, type EventTypeEntry, type Totals } from '../webhooks-api.js';
import { ActivityChart } from './activity-chart.js';

/** How often open activity views ask for news. */
const REFRESH_MS = 5_000;
const PAGE_SIZE = 20;
/** The chart reads at most this many pages of the last 24 hours. */
const CHART_PAGES = 5;

async function lastDay(
  workspaceId: string,
  now: Date,
): Promise<{ totals: Totals; items: Delivery[]; complete: boolean }> {
  const since = new Date(now.getTime() - 86_400_000).toISOString();
  const first = await webhooks.deliveries(workspaceId, deliveryQuery({ since }, { limit: 100 }));
  const items = [...first.items];
  let cursor = first.next_cursor;
  for (let page = 1; cursor && page < CHART_PAGES; page++) {
    const next = await webhooks.deliveries(workspaceId, deliveryQuery({ since }, { limit: 100, cursor }));
    items.push(...next.items);
    cursor = next.next_cursor;
  }
  return { totals: first.totals, items, complete: !cursor };
}

export function ActivityPage({ workspaceId }: { workspaceId: string }) {
  const [now, setNow] = useState(() => new Date());
  const summary = useLoad(() => lastDay(workspaceId, now), [workspaceId, now.getTime()]);
  const context = useLoad(async () => {
    const [list, catalogue] = await Promise.all([webhooks.endpoints(workspaceId), webhooks.eventTypes()]);
    return { endpoints: list.items, eventTypes: catalogue.items };
  }, [workspaceId]);
  useInterval(() => setNow(new Date()), REFRESH_MS);
  const totals = summary.data?.totals;

  return (
    <main id="main">
      <h1>Activity</h1>
      <ProblemNotice problem={summary.problem} title="Could not load the activity." />
      {totals ? <TotalsRow totals={totals} /> : null}
      {summary.data ? (
        <ActivityChart
          deliveries={summary.data.items}
          now={now}
          note={
            summary.data.complete
              ? ''
              : `Counted from the ${summary.data.items.length} most recently updated deliveries.`
          }
        />
      ) : null}
      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries</h2>
        <DeliveryList
          workspaceId={workspaceId}
          endpoints={context.data?.endpoints ?? []}
          eventTypes={context.data?.eventTypes ?? []}
          showFilters
        />
      </section>
    </main>
  );
}

function TotalsRow({ totals }: { totals: Totals }) {
  const cells: [string, string | number][] = [
    ['Total', totals.total],
    ['Succeeded', totals.succeeded],
    ['Failed', totals.failed],
    ['Pending', totals.pending],
    ['Delivering', totals.delivering],
    ['Success rate', totals.success_rate === null ? '—' : `${totals.success_rate} %`],
  ];
  return (
    <dl class="totals">
      {cells.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Deliveries, newest update first, filtered and paged by the API, the first page refreshed while shown. */
export function DeliveryList(props: {
  workspaceId: string;
  endpoints: Endpoint[];
  eventTypes?: EventTypeEntry[];
  fixed?: DeliveryFilters;
  showFilters?: boolean;
  /** What to say when there is nothing to list and the reader set no filter: what to do next. */
  empty?: string;
  /** Changed by the page to list again at once (after it made a delivery). */
  refresh?: number;
}) {
  const [filters, setFilters] = useState<DeliveryFilters>({});
  const pages = usePages();
  const { cursor } = pages;
  const applied = { ...filters, ...props.fixed };
  const key = JSON.stringify(applied);
  const list = useLoad(async () => {
    const page = await webhooks.deliveries(props.workspaceId, deliveryQuery(applied, { limit: PAGE_SIZE, cursor }));
    return { items: page.items, next: page.next_cursor ?? undefined };
  }, [props.workspaceId, key, cursor, props.refresh]);
  // Refresh the first page only: a later page would shift under the reader.
  useInterval(() => void list.reload(), REFRESH_MS, pages.first);

  const apply = (next: DeliveryFilters) => {
    setFilters(next);
    pages.reset();
  };
  const endpointName = (id: string, fallback: string) => props.endpoints.find((e) => e.id === id)?.name ?? fallback;
  const columns: Column<Delivery>[] = [
    {
      label: 'Event',
      cell: (delivery) => (
        <a href={href({ page: 'delivery', workspaceId: props.workspaceId, deliveryId: delivery.id })}>
          {delivery.event_type}
        </a>
      ),
    },
    {
      label: 'Endpoint',
      cell: (delivery) => endpointName(delivery.webhook_endpoint_id, delivery.webhook_endpoint_name),
    },
    { label: 'Status', cell: (delivery) => <StatusBadge status={delivery.status} /> },
    { label: 'Attempts', cell: (delivery) => delivery.attempt_count },
    { label: 'Last response', cell: (delivery) => delivery.last_status_code ?? delivery.last_error ?? '—' },
    { label: 'Updated', cell: (delivery) => <Time at={delivery.updated_at} /> },
  ];

  return (
    <div class="deliveries">
      {props.showFilters ? (
        <FilterBar filters={filters} endpoints={props.endpoints} eventTypes={props.eventTypes ?? []} onApply={apply} />
      ) : null}
      <ProblemNotice problem={list.problem} title="Could not load the deliveries." />
      <ListTable
        items={list.data?.items}
        columns={columns}
        rowKey={(delivery) => delivery.id}
        rowAttributes={(delivery) => ({ 'data-delivery-id': delivery.id })}
        responsive
        empty={
          <EmptyList
            filtered={hasFilters(filters)}
            noMatch="No deliveries match these filters."
            none={props.empty ?? 'No deliveries yet: they appear here as events of the endpoints’ types happen.'}
          />
        }
        pager={{ pages, next: list.data?.next }}
      />
    </div>
  );
}

interface FilterDraft {
  status: string;
  event_type: string;
  webhook_endpoint_id: string;
  since: string;
  until: string;
}

const toDraft = (filters: DeliveryFilters): FilterDraft => ({
  status: filters.status ?? '',
  event_type: filters.event_type ?? '',
  webhook_endpoint_id: filters.webhook_endpoint_id ?? '',
  since: toLocalInput(filters.since),
  until: toLocalInput(filters.until),
});

function FilterBar(props: {
  filters: DeliveryFilters;
  endpoints: Endpoint[];
  eventTypes: EventTypeEntry[];
  onApply: (f: DeliveryFilters) => void;
}) {
  // The form keeps what is typed across the list's refreshes until it is applied.
  const [draft, setDraft] = useState(() => toDraft(props.filters));
  const field = (name: keyof FilterDraft) => ({
    name,
    value: draft[name],
    onInput: (event: Event) => setDraft({ ...draft, [name]: (event.currentTarget as HTMLInputElement).value }),
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    props.onApply({
      status: (draft.status || undefined) as DeliveryFilters['status'],
      event_type: draft.event_type || undefined,
      webhook_endpoint_id: draft.webhook_endpoint_id || undefined,
      since: fromLocalInput(draft.since),
      until: fromLocalInput(draft.until),
    });
  };
  const clear = (event: Event) => {
    event.preventDefault();
    setDraft(toDraft({}));
    props.onApply({});
  };
  return (
    <form class="filters" onSubmit={submit} onReset={clear} aria-label="Filter deliveries">
      <label>
        Status
        <select {...field('status')}>
          <option value="">Any</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        Event type
        <select {...field('event_type')}>
          <option value="">Any</option>
          {props.eventTypes.map((t) => (
            <option key={t.type} value={t.type}>
              {t.type}
            </option>
          ))}
          <option value="webhook.test">webhook.test</option>
        </select>
      </label>
      <label>
        Endpoint
        <select {...field('webhook_endpoint_id')}>
          <option value="">Any</option>
          {props.endpoints.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Since
        <input type="datetime-local" {...field('since')} />
      </label>
      <label>
        Until
        <input type="datetime-local" {...field('until')} />
      </label>
      <div class="actions">
        <button type="submit">Apply</button>
        <button type="reset">Clear</button>
      </div>
    </form>
  );
}
