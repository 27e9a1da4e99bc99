import { formText } from '../form-text.js';
import { useState } from 'preact/hooks';
import { unwrap, type ApiProblem } from '@social-network/sdk';
import { api, session } from '../session.js';
import { asProblem } from '../use-load.js';
import { ProblemNotice } from '../ui/problem.js';

export function LoginPage({ onLoggedIn, reason }: { onLoggedIn: () => void; reason?: string }) {
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

  return (
    <main class="narrow" id="main">
      <h1>Webhook console</h1>
      <p>Log in as a workspace owner or admin to manage its webhook endpoints and deliveries.</p>
      {reason ? (
        <p class="notice" role="status">
          {reason}
        </p>
      ) : null}
      <ProblemNotice problem={problem} title="Could not log in." />
      <form onSubmit={(event) => void submit(event)} class="stack">
        <label>
          Email
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <p>
        <a href="console/reset-password">Forgot your password?</a>
      </p>
    </main>
  );
}
