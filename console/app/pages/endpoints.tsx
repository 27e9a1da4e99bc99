import { href, navigate } from '../router.js';
import { useLoad } from '../use-load.js';
import { StatusBadge, Time, Url } from '../ui/format.js';
import { ListTable } from '../ui/list-table.js';
import { ProblemNotice } from '../ui/problem.js';
import { EndpointForm } from './endpoint-form.js';
import { webhooks } from '../webhooks-api.js';
import { flash } from '../flash.js';

export function EndpointsPage({ workspaceId }: { workspaceId: string }) {
  const list = useLoad(() => webhooks.endpoints(workspaceId), [workspaceId]);
  return (
    <main id="main">
      <div class="title-row">
        <h1>Endpoints</h1>
        <a class="button primary" href={href({ page: 'new-endpoint', workspaceId })}>
          New endpoint
        </a>
      </div>
      <ProblemNotice problem={list.problem} title="Could not load the endpoints." />
      <ListTable
        items={list.data?.items}
        columns={[
          {
            label: 'Name',
            cell: (endpoint) => (
              <a href={href({ page: 'endpoint', workspaceId, endpointId: endpoint.id })}>{endpoint.name}</a>
            ),
          },
          { label: 'URL', cell: (endpoint) => <Url href={endpoint.url} /> },
          { label: 'Status', cell: (endpoint) => <StatusBadge status={endpoint.status} /> },
          { label: 'Events', cell: (endpoint) => endpoint.event_types.join(', ') },
          { label: 'Updated', cell: (endpoint) => <Time at={endpoint.updated_at} /> },
        ]}
        rowKey={(endpoint) => endpoint.id}
        responsive
        empty={
          <p class="notice empty">
            No endpoints yet. An endpoint is an HTTPS address of yours that receives this workspace's events (a mention,
            a new follower, a comment), signed: choose <strong>New endpoint</strong>
            {list.data?.available_profiles.length === 0 ? (
              <>
                {' '}
                after you <a href={href({ page: 'profiles', workspaceId })}>create a profile</a>
              </>
            ) : null}
            .
          </p>
        }
      />
    </main>
  );
}

export function NewEndpointPage({ workspaceId }: { workspaceId: string }) {
  const context = useLoad(async () => {
    const [list, catalogue] = await Promise.all([webhooks.endpoints(workspaceId), webhooks.eventTypes()]);
    return { list, catalogue };
  }, [workspaceId]);
  return (
    <main id="main" class="narrow">
      <p>
        <a href={href({ page: 'endpoints', workspaceId })}>← Endpoints</a>
      </p>
      <h1>New endpoint</h1>
      <ProblemNotice problem={context.problem} title="Could not load the form." />
      {context.data ? (
        <EndpointForm
          workspaceId={workspaceId}
          eventTypes={context.data.catalogue.items}
          profiles={context.data.list.available_profiles}
          submitLabel="Create endpoint"
          onSubmit={async (input) => {
            const created = await webhooks.createEndpoint(workspaceId, input);
            flash.set({
              kind: 'created',
              endpointId: created.webhook_endpoint.id,
              secret: created.secret,
              at: new Date().toISOString(),
            });
            navigate({ page: 'endpoint', workspaceId, endpointId: created.webhook_endpoint.id });
          }}
        />
      ) : null}
    </main>
  );
}
