import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { flash, type SecretFlash } from '../flash.js';
import { href } from '../router.js';
import { asProblem, useLoad } from '../use-load.js';
import { ConfirmDialog } from '../ui/confirm.js';
import { StatusBadge, Time, Url } from '../ui/format.js';
import { Notice, ProblemNotice } from '../ui/problem.js';
import { SecretBox } from '../ui/secret-box.js';
import { webhooks, type Endpoint } from '../webhooks-api.js';
import { DeliveryList } from './activity.js';
import { EndpointForm } from './endpoint-form.js';
import { RecoverForm } from './recover-form.js';

/** After POST …/rotate-secret the previous secret keeps signing alongside the new one this long (API.md). */
const PREVIOUS_SECRET_VALID_MS = 24 * 3_600_000;

export function EndpointPage({ workspaceId, endpointId }: { workspaceId: string; endpointId: string }) {
  const [secret, setSecret] = useState<SecretFlash | undefined>(() => flash.take(endpointId));
  const [problem, setProblem] = useState<ApiProblem>();
  const [message, setMessage] = useState<ComponentChildren>();
  const [confirming, setConfirming] = useState(false);
  const [listed, setListed] = useState(0);
  const context = useLoad(async () => {
    const [list, catalogue] = await Promise.all([webhooks.endpoints(workspaceId), webhooks.eventTypes()]);
    return { list, catalogue, endpoint: list.items.find((e) => e.id === endpointId) };
  }, [workspaceId, endpointId]);

  const act = async (what: () => Promise<ComponentChildren | void>) => {
    setProblem(undefined);
    setMessage(undefined);
    try {
      const done = await what();
      if (done) setMessage(done);
      await context.reload();
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const endpoint = context.data?.endpoint;
  if (context.data && !endpoint) {
    return (
      <main id="main">
        <h1>Endpoint not found</h1>
        <p>
          It is not in this workspace. <a href={href({ page: 'endpoints', workspaceId })}>Back to the endpoints</a>.
        </p>
      </main>
    );
  }
  const revoked = endpoint?.status === 'revoked';

  return (
    <main id="main">
      <p>
        <a href={href({ page: 'endpoints', workspaceId })}>← Endpoints</a>
      </p>
      <ProblemNotice problem={context.problem} title="Could not load the endpoint." />
      {endpoint ? (
        <>
          <div class="title-row">
            <h1>{endpoint.name}</h1>
            <StatusBadge status={endpoint.status} />
          </div>
          {secret ? <SecretPanel flash={secret} onDismiss={() => setSecret(undefined)} /> : null}
          <ProblemNotice problem={problem} />
          {message ? <Notice>{message}</Notice> : null}
          <EndpointSummary endpoint={endpoint} />

          <section aria-labelledby="actions-title">
            <h2 id="actions-title">Actions</h2>
            <div class="actions wrap">
              <button
                type="button"
                disabled={endpoint.status !== 'active'}
                onClick={() =>
                  void act(async () => {
                    const sent = await webhooks.sendTest(workspaceId, endpoint.id);
                    // The delivery exists once the API answers: list it at once rather than at the next refresh.
                    setListed((n) => n + 1);
                    return (
                      <>
                        Test event queued as delivery{' '}
                        <a href={href({ page: 'delivery', workspaceId, deliveryId: sent.webhook_delivery_id })}>
                          {sent.webhook_delivery_id.slice(0, 8)}…
                        </a>
                        , listed under Recent deliveries; its status changes once the receiver answers.
                      </>
                    );
                  })
                }
              >
                Send test event
              </button>
              <button
                type="button"
                disabled={revoked}
                onClick={() =>
                  void act(async () => {
                    const rotated = await webhooks.rotateSecret(workspaceId, endpoint.id);
                    setSecret({
                      kind: 'rotated',
                      endpointId: endpoint.id,
                      secret: rotated.secret,
                      at: new Date().toISOString(),
                    });
                  })
                }
              >
                Rotate secret
              </button>
              {endpoint.status === 'disabled' ? (
                <button
                  type="button"
                  onClick={() =>
                    void act(async () => {
                      await webhooks.enableEndpoint(workspaceId, endpoint.id);
                      return 'Endpoint enabled: it receives new events again.';
                    })
                  }
                >
                  Enable
                </button>
              ) : null}
              <button type="button" class="danger" disabled={revoked} onClick={() => setConfirming(true)}>
                Revoke…
              </button>
            </div>
            <p class="hint">
              {endpoint.status === 'disabled'
                ? `${disabledBecause(endpoint.disabled_reason)} Enable it once the receiver is ready again.`
                : 'The sender disables an endpoint whose receiver answers 410 Gone or fails every delivery for days; the API has no action to disable it by hand.'}
            </p>
          </section>

          <ConfirmDialog
            open={confirming}
            title={`Revoke “${endpoint.name}”?`}
            confirmLabel="Revoke endpoint"
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              void act(async () => {
                await webhooks.revokeEndpoint(workspaceId, endpoint.id);
                return 'Endpoint revoked. New events are no longer sent to it, and pending retries end as failed.';
              });
            }}
          >
            <p>New events stop at once and pending retries end as failed. This cannot be undone.</p>
          </ConfirmDialog>

          {!revoked ? <RecoverForm workspaceId={workspaceId} endpointId={endpoint.id} /> : null}

          <section aria-labelledby="edit-title">
            <h2 id="edit-title">Settings</h2>
            {revoked ? <p class="hint">A revoked endpoint cannot be changed.</p> : null}
            <EndpointForm
              workspaceId={workspaceId}
              key={endpoint.updated_at}
              endpoint={endpoint}
              eventTypes={context.data!.catalogue.items}
              profiles={context.data!.list.available_profiles}
              submitLabel="Save changes"
              disabled={revoked}
              onSubmit={async (input) => {
                await webhooks.updateEndpoint(workspaceId, endpoint.id, input);
                setMessage('Changes saved. Pending retries use the new settings.');
                await context.reload();
              }}
            />
          </section>

          <section aria-labelledby="recent-title">
            <h2 id="recent-title">Recent deliveries</h2>
            <DeliveryList
              workspaceId={workspaceId}
              fixed={{ webhook_endpoint_id: endpoint.id }}
              endpoints={[endpoint]}
              refresh={listed}
              empty="No deliveries yet. Send a test event to try the receiver, or wait for an event of its types."
            />
          </section>
        </>
      ) : null}
    </main>
  );
}

/** Why the sender disabled the endpoint, in the words of its disabled_reason. */
function disabledBecause(reason: Endpoint['disabled_reason']): string {
  if (reason === 'gone') return 'Disabled: the receiver answered 410 Gone.';
  if (reason === 'failing') return 'Disabled: every delivery failed for days.';
  return 'Disabled by the sender.';
}

function EndpointSummary({ endpoint }: { endpoint: Endpoint }) {
  return (
    <dl class="facts">
      <dt>URL</dt>
      <dd>
        <Url href={endpoint.url} />
      </dd>
      <dt>Event types</dt>
      <dd>
        {endpoint.event_types.map((t) => (
          <code key={t} class="tag">
            {t}
          </code>
        ))}
      </dd>
      <dt>Profiles</dt>
      <dd>{endpoint.profiles.map((p) => `${p.name} (@${p.username})`).join(', ')}</dd>
      <dt>Rate limit</dt>
      <dd>
        {endpoint.rate_limit_per_second === null ? 'None of its own' : `${endpoint.rate_limit_per_second} per second`}
      </dd>
      <dt>Created</dt>
      <dd>
        <Time at={endpoint.created_at} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <Time at={endpoint.updated_at} />
      </dd>
      {endpoint.disabled_at ? (
        <>
          <dt>Disabled</dt>
          <dd>
            <Time at={endpoint.disabled_at} />
          </dd>
        </>
      ) : null}
      <dt>Endpoint id</dt>
      <dd class="mono">{endpoint.id}</dd>
    </dl>
  );
}

function SecretPanel({ flash: shown, onDismiss }: { flash: SecretFlash; onDismiss: () => void }) {
  const previousUntil = new Date(Date.parse(shown.at) + PREVIOUS_SECRET_VALID_MS).toISOString();
  return (
    <section class="panel" aria-labelledby="secret-title">
      <h2 id="secret-title">{shown.kind === 'created' ? 'Endpoint created: its signing secret' : 'Secret rotated'}</h2>
      <SecretBox
        secret={shown.secret}
        label={shown.kind === 'created' ? 'Signing secret' : 'New signing secret'}
        note="Shown only now: the API never returns it again. Verify deliveries with it (Standard Webhooks)."
      />
      {shown.kind === 'rotated' ? (
        <dl class="facts">
          <dt>New secret</dt>
          <dd>
            signs every delivery from <Time at={shown.at} /> on
          </dd>
          <dt>Previous secret</dt>
          <dd>
            keeps signing alongside it until <Time at={previousUntil} /> (24 hours), so receivers can switch without
            losing a delivery
          </dd>
        </dl>
      ) : null}
      <button type="button" onClick={onDismiss}>
        I have saved it
      </button>
    </section>
  );
}
