import { useState } from 'preact/hooks';
import { unwrap, type ApiProblem } from '@social-network/sdk';
import { api } from '../session.js';
import { asProblem } from '../use-load.js';
import { Notice, ProblemNotice } from '../ui/problem.js';

/**
 * `/console/verify-email?token=…`, the link of a verification mail. The token is used only when
 * the person presses the button: a mail scanner that opens links does not spend it.
 */
export function VerifyEmailPage({ token }: { token: string }) {
  const [problem, setProblem] = useState<ApiProblem>();
  const [verified, setVerified] = useState<string>();
  const [busy, setBusy] = useState(false);

  const verify = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const data = await unwrap(api.POST('/v1/email-verifications', { body: { token } }));
      setVerified(data.user.email);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="narrow" id="main">
      <h1>Verify your email address</h1>
      {verified ? (
        <Notice>
          <p>
            Your address <strong>{verified}</strong> is verified. <a href="../console">Go to the console</a>.
          </p>
        </Notice>
      ) : token ? (
        <>
          <ProblemNotice problem={problem} title="Could not verify the address." />
          <p>Confirm that this address is yours.</p>
          <button type="button" class="primary" disabled={busy} onClick={() => void verify()}>
            {busy ? 'Verifying…' : 'Verify my email address'}
          </button>
        </>
      ) : (
        <p>This page opens from the link of a verification mail; the link you followed carries no token.</p>
      )}
    </main>
  );
}
