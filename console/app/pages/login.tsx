import { formText } from '../form-text.js';
import { useState } from 'preact/hooks';
import { unwrap, type ApiProblem } from '@social-network/sdk';
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

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setProblem(undefined);
    try {
      const data = await unwrap(
        api.POST('/v1/sessions', {
          body: { email: formText(form, 'email'), password: formText(form, 'password') },
        }),
      );
      session.save(data.session.token);
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
        <label>
          Email
          <input name="email" type="email" autocomplete="username webauthn" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <div class="auth-alternatives" />
      <ul class="auth-links">
        <li>
          New here?{' '}
          <a href={href({ page: 'signup' })} onClick={() => rememberReturn(purpose === 'consent')}>
            Create an account
          </a>
        </li>
      </ul>
    </main>
  );
}
