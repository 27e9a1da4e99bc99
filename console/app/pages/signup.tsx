import { formText } from '../form-text.js';
import { unwrap } from '@social-network/sdk';
import { href } from '../router.js';
import { api, session } from '../session.js';
import { FieldError, useFormSubmit } from '../ui/fields.js';
import { ProblemNotice } from '../ui/problem.js';

/** Where to go after signing up: the app's consent page the person came from, if any. */
let returnTo: string | undefined;
export const rememberReturn = (fromConsent: boolean) => {
  returnTo = fromConsent ? location.hash : undefined;
};

/** Sign up (POST /v1/users: the account and its personal workspace), then log in at once. */
export function SignUpPage({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { problem, busy, fields, onSubmit } = useFormSubmit(async (form) => {
    const credentials = { email: formText(form, 'email'), password: formText(form, 'password') };
    await unwrap(api.POST('/v1/users', { body: { ...credentials, name: formText(form, 'name') } }));
    const data = await unwrap(api.POST('/v1/sessions', { body: credentials }));
    session.save(data.session.token);
    if (returnTo) location.replace(returnTo);
    onLoggedIn();
  });

  return (
    <main class="narrow auth" id="main">
      <h1>Create your account</h1>
      <p>
        An account comes with a personal workspace: in it you create the profiles that post, their API keys and webhook
        endpoints, and connect apps.
      </p>
      <ProblemNotice problem={problem} title="Could not create the account." />
      <form onSubmit={onSubmit} class="stack" noValidate>
        <label>
          Your name
          <input name="name" autocomplete="name" required maxLength={100} {...fields.attributes('name')} />
        </label>
        <FieldError fields={fields} name="name" />
        <label>
          Email
          <input name="email" type="email" autocomplete="username" required {...fields.attributes('email')} />
        </label>
        <FieldError fields={fields} name="email" />
        <label>
          Password
          <input
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minLength={10}
            {...fields.attributes('password')}
          />
          <span class="hint">At least 10 characters; a few words make a good one.</span>
        </label>
        <FieldError fields={fields} name="password" />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating the account…' : 'Create account'}
        </button>
      </form>
      <ul class="auth-links">
        <li>
          Already have an account? <a href={returnTo ?? href({ page: 'login' })}>Log in</a>
        </li>
      </ul>
    </main>
  );
}
