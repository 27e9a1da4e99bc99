import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { account } from '../../account-api.js';
import { Time } from '../../ui/format.js';
import { Notice, ProblemNotice } from '../../ui/problem.js';
import { session, SIGNED_OUT_EVENT } from '../../session.js';
import { asProblem, useLoad } from '../../use-load.js';

/** The account is being erased: this session no longer works, so the console signs out. */
function erased() {
  session.clear();
  dispatchEvent(new Event(SIGNED_OUT_EVENT));
}

/**
 * Deleting the account: after the 30-day grace period (the profiles are hidden at once, and a
 * cancel restores them) or now (the erasure starts and this session ends). The password is asked
 * for either; a scheduled deletion shows its date and the cancel.
 */
export function DeletionSection() {
  const loaded = useLoad(() => account.deletion(), []);
  const [password, setPassword] = useState('');
  const [now, setNow] = useState(false);
  const [problem, setProblem] = useState<ApiProblem>();
  const [done, setDone] = useState<string>();

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    setDone(undefined);
    try {
      const { deletion } = await account.deleteAccount(password, now ? 'now' : 'after_grace');
      setPassword('');
      if (deletion.status === 'in_progress') return erased();
      setDone('The deletion is scheduled: your profiles are hidden from now on.');
      await loaded.reload();
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const cancel = async () => {
    setProblem(undefined);
    try {
      await account.cancelDeletion();
      setDone('The deletion is cancelled: everything reads as it did.');
      await loaded.reload();
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const scheduled = loaded.data;
  return (
    <section aria-labelledby="deletion-heading">
      <h2 id="deletion-heading">Deletion</h2>
      {done ? <Notice>{done}</Notice> : null}
      <ProblemNotice problem={loaded.problem ?? problem} title="The deletion did not go through." />
      {scheduled ? (
        <>
          <p>
            Your account is scheduled for deletion on <Time at={scheduled.scheduled_for} />. Until then your profiles
            are hidden from everyone; cancel to restore everything as it was.
          </p>
          <button type="button" onClick={() => void cancel()}>
            Cancel the deletion
          </button>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <p>
            Deleting your account erases every profile of the workspaces you own, with everything they wrote and
            received, and ends your membership in the others. Only each profile's username is kept, for 90 days.
          </p>
          <label>
            Password
            <input
              type="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          <label>
            <input type="checkbox" checked={now} onChange={(e) => setNow(e.currentTarget.checked)} /> Erase now, without
            the 30-day grace period
          </label>
          <button type="submit" class="danger">
            {now ? 'Delete my account now' : 'Delete my account in 30 days'}
          </button>
        </form>
      )}
    </section>
  );
}
