import { useState } from 'preact/hooks';
import { unwrap, type ApiProblem } from '@social-network/sdk';
import { formText } from '../form-text.js';
import { api } from '../session.js';
import { asProblem } from '../use-load.js';
import { Notice, ProblemNotice } from '../ui/problem.js';

/**
 * `/console/reset-password`: without a token, asks for a reset mail ("Forgot your password?" on
 * the login page); with the token of that mail's link, sets the new password.
 */
export function ResetPasswordPage({ token }: { token: string }) {
  return (
    <main class="narrow" id="main">
      <h1>Reset your password</h1>
      {token ? <NewPasswordForm token={token} /> : <RequestForm />}
    </main>
  );
}

function useSubmit(run: (form: FormData) => Promise<void>) {
  const [problem, setProblem] = useState<ApiProblem>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await run(new FormData(event.currentTarget as HTMLFormElement));
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return { problem, busy, submit };
}

function RequestForm() {
  const [sentTo, setSentTo] = useState<string>();
  const { problem, busy, submit } = useSubmit(async (form) => {
    const email = formText(form, 'email');
    await unwrap(api.POST('/v1/password-resets', { body: { email } }));
    setSentTo(email);
  });
  if (sentTo)
    return (
      <Notice>
        <p>
          If an account has the address <strong>{sentTo}</strong>, a mail with a link to choose a new password is on its
          way. The link works once, within 30 minutes.
        </p>
      </Notice>
    );
  return (
    <>
      <p>Enter your account's email address: we mail you a link to choose a new password.</p>
      <ProblemNotice problem={problem} title="Could not ask for a reset." />
      <form onSubmit={(event) => void submit(event)} class="stack">
        <label>
          Email
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Sending…' : 'Mail me a link'}
        </button>
      </form>
    </>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const [done, setDone] = useState(false);
  const { problem, busy, submit } = useSubmit(async (form) => {
    const code = formText(form, 'code').trim();
    // Six digits are the app's code; anything else is a recovery code.
    const second = code ? (/^\d{6}$/.test(code) ? { totp_code: code } : { recovery_code: code }) : {};
    await unwrap(
      api.POST('/v1/password-resets/confirm', { body: { token, password: formText(form, 'password'), ...second } }),
    );
    setDone(true);
  });
  if (done)
    return (
      <Notice>
        <p>
          Your password is changed, and every session of your account has ended.{' '}
          <a href="../console">Log in with the new password</a>.
        </p>
      </Notice>
    );
  return (
    <>
      <ProblemNotice problem={problem} title="Could not set the password." />
      <form onSubmit={(event) => void submit(event)} class="stack">
        <label>
          New password (at least 10 characters)
          <input name="password" type="password" autocomplete="new-password" minLength={10} required />
        </label>
        <label>
          Authenticator code or recovery code (only if your account has a second factor)
          <input name="code" autocomplete="one-time-code" />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Set the new password'}
        </button>
      </form>
    </>
  );
}
