import { formText } from '../form-text.js';
import { useState } from 'preact/hooks';
import { unwrap, type ApiProblem } from '@social-network/sdk';
import { passkeys } from '../passkeys-api.js';
import { href } from '../router.js';
import { api, session } from '../session.js';
import { asProblem } from '../use-load.js';
import { ProblemNotice } from '../ui/problem.js';
import { rememberReturn } from './signup.js';

/** Why the person is asked to log in: the console itself, or an app's consent page behind it. */
export type LoginPurpose = 'console' | 'consent';

const LEAD: Record<LoginPurpose, { title: string; lead: string }> = {
  console: {
    title: 'Log in',
    lead: 'Your account: its workspaces, their webhook endpoints and deliveries, and the apps you connected.',
  },
  consent: {
    title: 'Log in to connect an app',
    lead: 'An app asks for access to your account. Log in, then you see which app it is and choose what it may do: nothing is shared before you approve.',
  },
};

/**
 * The login page: the password form, then the other ways in (a passkey button, for one) and the
 * links below it (sign up; a forgotten password), each one entry of its own.
 */
export function LoginPage({
  onLoggedIn,
  reason,
  purpose = 'console',
}: {
  onLoggedIn: () => void;
  reason?: string;
  purpose?: LoginPurpose;
}) {
  const [problem, setProblem] = useState<ApiProblem>();
  const [busy, setBusy] = useState(false);
  // Set when the account asked for its second factor: the next step sends them with a code.
  const [credentials, setCredentials] = useState<{ email: string; password: string }>();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const given = credentials ?? { email: formText(form, 'email'), password: formText(form, 'password') };
    const code = formText(form, 'code').trim();
    // A recovery code is longer than the app's six digits: the one field takes either.
    const factor = !credentials ? {} : /^\d{6}$/.test(code) ? { totp_code: code } : { recovery_code: code };
    setBusy(true);
    setProblem(undefined);
    try {
      const data = await unwrap(api.POST('/v1/sessions', { body: { ...given, ...factor } }));
      session.save(data.session.token);
      onLoggedIn();
    } catch (error) {
      const problem = asProblem(error);
      if (problem.code === 'second_factor_required') setCredentials(given);
      else setProblem(problem);
    } finally {
      setBusy(false);
    }
  };

  const signInWithPasskey = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      session.save((await passkeys.signIn()).session.token);
      onLoggedIn();
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };

  const { title, lead } = LEAD[purpose];
  return (
    <main class="narrow auth" id="main">
      <h1>{title}</h1>
      <p>{lead}</p>
      {reason ? (
        <p class="notice" role="status">
          {reason}
        </p>
      ) : null}
      <ProblemNotice problem={problem} title="Could not log in." />
      <form onSubmit={(event) => void submit(event)} class="stack">
        {credentials ? (
          <label>
            Code from your authenticator app, or a recovery code
            <input name="code" autocomplete="one-time-code" required autoFocus />
          </label>
        ) : (
          <>
            <label>
              Email
              <input name="email" type="email" autocomplete="username" required />
            </label>
            <label>
              Password
              <input name="password" type="password" autocomplete="current-password" required />
            </label>
          </>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <div class="auth-alternatives">
        <button type="button" disabled={busy} onClick={() => void signInWithPasskey()}>
          Sign in with a passkey
        </button>
      </div>
      <ul class="auth-links">
        <li>
          New here?{' '}
          <a href={href({ page: 'signup' })} onClick={() => rememberReturn(purpose === 'consent')}>
            Create an account
          </a>
        </li>
        <li>
          <a href="console/reset-password">Forgot your password?</a>
        </li>
      </ul>
    </main>
  );
}
