import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { security, type SessionInfo } from '../../security-api.js';
import { ConfirmDialog } from '../../ui/confirm.js';
import { Time } from '../../ui/format.js';
import { ListTable } from '../../ui/list-table.js';
import { Notice, ProblemNotice } from '../../ui/problem.js';
import { asProblem, useLoad } from '../../use-load.js';

const HOW: Record<SessionInfo['method'], string> = { password: 'Password', passkey: 'Passkey' };
const FACTOR: Record<NonNullable<SessionInfo['second_factor']>, string> = {
  totp: ' + app code',
  recovery_code: ' + recovery code',
};

/** Where the user is logged in, each session endable at once. */
export function SessionsSection() {
  const loaded = useLoad(() => security.sessions(), []);
  const [asking, setAsking] = useState<SessionInfo>();
  const [done, setDone] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();

  const end = async (session: SessionInfo) => {
    setAsking(undefined);
    setProblem(undefined);
    try {
      await security.endSession(session.id);
      setDone('The session is ended: its token no longer works.');
      await loaded.reload();
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      <p>Where you are logged in. End any session you do not recognise.</p>
      {done ? <Notice>{done}</Notice> : null}
      <ProblemNotice problem={loaded.problem ?? problem} title="Could not load or end the sessions." />
      <ListTable
        items={loaded.data?.items}
        columns={[
          {
            label: 'Browser',
            cell: (session) => (
              <>
                {session.user_agent ?? <span class="muted">unknown</span>}
                {session.current ? <div class="muted">This session</div> : null}
              </>
            ),
          },
          { label: 'Network', cell: (session) => <code>{session.ip_prefix ?? '—'}</code> },
          {
            label: 'Logged in with',
            cell: (session) => (
              <>
                {HOW[session.method]}
                {session.second_factor ? FACTOR[session.second_factor] : ''}
              </>
            ),
          },
          { label: 'Started', cell: (session) => <Time at={session.created_at} /> },
          { label: 'Last used', cell: (session) => <Time at={session.last_used_at} /> },
          {
            label: 'Actions',
            hidden: true,
            cell: (session) =>
              session.current ? null : (
                <button type="button" class="danger" onClick={() => setAsking(session)}>
                  End
                </button>
              ),
          },
        ]}
        rowKey={(session) => session.id}
      />
      <ConfirmDialog
        open={asking !== undefined}
        title="End this session?"
        confirmLabel="End session"
        onConfirm={() => asking && void end(asking)}
        onCancel={() => setAsking(undefined)}
      >
        <p>Whoever uses it is logged out at once.</p>
      </ConfirmDialog>
    </section>
  );
}
