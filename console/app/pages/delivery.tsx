import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { eventSchemaHref } from '../event-schema-link.js';
import { href } from '../router.js';
import { DeliveryPayload } from './delivery-payload.js';
import { asProblem, useInterval, useLoad } from '../use-load.js';
import { StatusBadge, Time } from '../ui/format.js';
import { ListTable } from '../ui/list-table.js';
import { Notice, ProblemNotice } from '../ui/problem.js';
import { webhooks, type Attempt, type Delivery } from '../webhooks-api.js';

const EXCERPT = 300;

export function DeliveryPage({ workspaceId, deliveryId }: { workspaceId: string; deliveryId: string }) {
  const detail = useLoad(() => webhooks.delivery(workspaceId, deliveryId), [workspaceId, deliveryId]);
  const [problem, setProblem] = useState<ApiProblem>();
  const [message, setMessage] = useState<string>();
  const status = detail.data?.delivery.status;
  // A delivery still on its way changes by itself; a finished one changes only when retried.
  useInterval(() => void detail.reload(), 2_000, status === 'pending' || status === 'delivering');

  const retry = async () => {
    setProblem(undefined);
    setMessage(undefined);
    try {
      await webhooks.retryDelivery(workspaceId, deliveryId);
      setMessage('Retry started: a new attempt follows shortly.');
      await detail.reload();
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const data = detail.data;
  return (
    <main id="main">
      <p>
        <a href={href({ page: 'activity', workspaceId })}>← Activity</a>
      </p>
      <ProblemNotice problem={detail.problem} title="Could not load the delivery." />
      {data ? (
        <>
          <div class="title-row">
            <h1>{data.delivery.event_type}</h1>
            <StatusBadge status={data.delivery.status} />
          </div>
          <ProblemNotice problem={problem} title="Could not retry." />
          {message ? <Notice>{message}</Notice> : null}
          {data.delivery.status === 'failed' ? (
            <p>
              <button type="button" class="primary" onClick={() => void retry()}>
                Retry delivery
              </button>
            </p>
          ) : null}
          <DeliveryFacts delivery={data.delivery} workspaceId={workspaceId} />
          <DeliveryPayload payload={data.payload} />
          <section aria-labelledby="headers-title">
            <h2 id="headers-title">Headers sent</h2>
            <p class="hint">
              Every attempt carries <code>webhook-id</code> (the delivery id), <code>webhook-timestamp</code> (the
              attempt's start in Unix seconds) and <code>webhook-signature</code> (not kept by the API).
            </p>
            <pre class="code-block">{sentHeaders(data.delivery, data.attempts)}</pre>
          </section>
          <section aria-labelledby="attempts-title">
            <h2 id="attempts-title">Attempts ({data.attempts.length})</h2>
            <Attempts attempts={data.attempts} />
          </section>
        </>
      ) : null}
    </main>
  );
}

/** The Standard Webhooks headers of the latest attempt, as far as the API's record tells them. */
function sentHeaders(delivery: Delivery, attempts: Attempt[]): string {
  const last = attempts[attempts.length - 1];
  const timestamp = last
    ? `${Math.floor(Date.parse(last.started_at) / 1000)}   (attempt ${last.number})`
    : '(no attempt yet)';
  return `content-type: application/json\nwebhook-id: ${delivery.id}\nwebhook-timestamp: ${timestamp}\nwebhook-signature: v1,…`;
}

function DeliveryFacts({ delivery, workspaceId }: { delivery: Delivery; workspaceId: string }) {
  return (
    <dl class="facts">
      <dt>Endpoint</dt>
      <dd>
        <a href={href({ page: 'endpoint', workspaceId, endpointId: delivery.webhook_endpoint_id })}>
          {delivery.webhook_endpoint_name}
        </a>
      </dd>
      <dt>Attempts</dt>
      <dd>{delivery.attempt_count}</dd>
      <dt>Next attempt</dt>
      <dd>
        <Time at={delivery.next_attempt_at} />
      </dd>
      <dt>Delivered</dt>
      <dd>
        <Time at={delivery.delivered_at} />
      </dd>
      <dt>Created</dt>
      <dd>
        <Time at={delivery.created_at} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <Time at={delivery.updated_at} />
      </dd>
      <dt>Delivery id</dt>
      <dd class="mono">{delivery.id}</dd>
      <dt>Event id</dt>
      <dd class="mono">{delivery.webhook_event_id}</dd>
      <dt>Event schema</dt>
      <dd>
        <a href={eventSchemaHref(delivery.event_type)} target="_blank" rel="noopener">
          {delivery.event_type} in the API reference
        </a>
      </dd>
    </dl>
  );
}

function Attempts({ attempts }: { attempts: Attempt[] }) {
  return (
    <ListTable
      items={attempts}
      columns={[
        { label: '#', cell: (attempt) => attempt.number },
        { label: 'Started', cell: (attempt) => <Time at={attempt.started_at} /> },
        { label: 'Duration', cell: (attempt) => `${attempt.duration_ms} ms` },
        { label: 'Status code', cell: (attempt) => attempt.status_code ?? '—' },
        { label: 'Error', cell: (attempt) => attempt.error ?? '—' },
        { label: 'Response', cell: (attempt) => <ResponseExcerpt body={attempt.response_body} /> },
      ]}
      rowKey={(attempt) => attempt.number}
      responsive
      class="attempts"
      empty={<p>No attempt yet.</p>}
    />
  );
}

function ResponseExcerpt({ body }: { body: string | null }) {
  if (!body) return <span class="muted">—</span>;
  if (body.length <= EXCERPT) return <code class="excerpt">{body}</code>;
  return (
    <details>
      <summary>
        <code class="excerpt">{body.slice(0, EXCERPT)}…</code>
      </summary>
      <pre class="code-block">{body}</pre>
    </details>
  );
}
