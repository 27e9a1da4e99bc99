import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { security, type SessionInfo } from '../../security-api.js';
import { ConfirmDialog } from '../../ui/confirm.js';
import { Time } from '../../ui/format.js';
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

  const sessions = loaded.data?.items ?? [];
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      <p>Where you are logged in. End any session you do not recognise.</p>
      {done ? <Notice>{done}</Notice> : null}
      <ProblemNotice problem={loaded.problem ?? problem} title="Could not load or end the sessions." />
      {sessions.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Network</th>
              <th scope="col">Logged in with</th>
              <th scope="col">Started</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <td>
                  {session.user_agent ?? <span class="muted">unknown</span>}
                  {session.current ? <div class="muted">This session</div> : null}
                </td>
                <td>
                  <code>{session.ip_prefix ?? '—'}</code>
                </td>
                <td>
                  {HOW[session.method]}
                  {session.second_factor ? FACTOR[session.second_factor] : ''}
                </td>
                <td>
                  <Time at={session.created_at} />
                </td>
                <td>
                  <Time at={session.last_used_at} />
                </td>
                <td>
                  {session.current ? null : (
                    <button type="button" class="danger" onClick={() => setAsking(session)}>
                      End
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
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
