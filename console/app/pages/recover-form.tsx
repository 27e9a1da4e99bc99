import { formText } from '../form-text.js';
import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { fromLocalInput, recoverWindowProblem, RECOVER_MAX_DAYS, toLocalInput } from '../delivery-filters.js';
import { asProblem } from '../use-load.js';
import { Notice, ProblemNotice } from '../ui/problem.js';
import { webhooks } from '../webhooks-api.js';

/** Re-sends the endpoint's failed deliveries of a time window (POST …/recover → 202 { queued }). */
export function RecoverForm({ workspaceId, endpointId }: { workspaceId: string; endpointId: string }) {
  const [problem, setProblem] = useState<ApiProblem>();
  const [local, setLocal] = useState<string>();
  const [queued, setQueued] = useState<number>();
  const [busy, setBusy] = useState(false);
  const defaultSince = toLocalInput(new Date(Date.now() - 86_400_000).toISOString());

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const since = fromLocalInput(formText(form, 'since'));
    const until = fromLocalInput(formText(form, 'until'));
    setProblem(undefined);
    setQueued(undefined);
    const invalid = recoverWindowProblem(since, until, new Date());
    setLocal(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      const result = await webhooks.recover(workspaceId, endpointId, { since: since!, ...(until ? { until } : {}) });
      setQueued(result.queued);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="recover-title">
      <h2 id="recover-title">Recover failed deliveries</h2>
      <p class="hint">
        Sends this endpoint's failed deliveries of a window (at most {RECOVER_MAX_DAYS} days) again, once each.
      </p>
      <form class="inline-form" onSubmit={(event) => void submit(event)}>
        <label>
          Since
          <input type="datetime-local" name="since" required defaultValue={defaultSince} />
        </label>
        <label>
          Until (optional)
          <input type="datetime-local" name="until" />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Queuing…' : 'Recover'}
        </button>
      </form>
      {local ? (
        <p class="notice notice-error" role="alert">
          {local}
        </p>
      ) : null}
      <ProblemNotice problem={problem} title="Recovery was not started." />
      {queued !== undefined ? (
        <Notice>
          {queued === 0 ? 'No failed deliveries in that window.' : `${queued} failed deliveries queued again.`}
        </Notice>
      ) : null}
    </section>
  );
}
