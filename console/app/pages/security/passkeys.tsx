import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { formText } from '../../form-text.js';
import { passkeys, type Passkey } from '../../passkeys-api.js';
import { ConfirmDialog } from '../../ui/confirm.js';
import { Time } from '../../ui/format.js';
import { ListTable } from '../../ui/list-table.js';
import { Notice, ProblemNotice } from '../../ui/problem.js';
import { asProblem, useLoad } from '../../use-load.js';

/** The user's passkeys: add one (named), see them, delete one. */
export function PasskeysSection() {
  const loaded = useLoad(() => passkeys.list(), []);
  const [asking, setAsking] = useState<Passkey>();
  const [done, setDone] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<string>) => {
    setProblem(undefined);
    setDone(undefined);
    setBusy(true);
    try {
      setDone(await work());
      await loaded.reload();
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };

  const add = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = formText(new FormData(form), 'name');
    void act(async () => {
      await passkeys.add(name);
      form.reset();
      return `Passkey “${name}” added: you can sign in with it.`;
    });
  };

  const remove = (passkey: Passkey) => {
    setAsking(undefined);
    void act(async () => {
      await passkeys.remove(passkey.id);
      return `Passkey “${passkey.name}” deleted: it no longer signs in.`;
    });
  };

  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>Sign in with your device's screen lock or a security key instead of your password.</p>
      {done ? <Notice>{done}</Notice> : null}
      <ProblemNotice problem={loaded.problem ?? problem} title="Could not load or change your passkeys." />
      <ListTable
        items={loaded.data?.items}
        columns={[
          { label: 'Name', cell: (passkey) => passkey.name },
          { label: 'Added', cell: (passkey) => <Time at={passkey.created_at} /> },
          { label: 'Last used', cell: (passkey) => <Time at={passkey.last_used_at} /> },
          {
            label: 'Actions',
            hidden: true,
            cell: (passkey) => (
              <button type="button" class="danger" onClick={() => setAsking(passkey)}>
                Delete
              </button>
            ),
          },
        ]}
        rowKey={(passkey) => passkey.id}
        empty={<p class="notice">You have no passkey yet.</p>}
      />
      <form onSubmit={add} class="stack">
        <label>
          Passkey name
          <input name="name" required maxLength={100} placeholder="Laptop" />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Waiting for your device…' : 'Add a passkey'}
        </button>
      </form>
      <ConfirmDialog
        open={asking !== undefined}
        title={`Delete the passkey “${asking?.name ?? ''}”?`}
        confirmLabel="Delete"
        onConfirm={() => asking && remove(asking)}
        onCancel={() => setAsking(undefined)}
      >
        <p>It will no longer sign in. Sessions it signed in to stay until you log them out.</p>
      </ConfirmDialog>
    </section>
  );
}
