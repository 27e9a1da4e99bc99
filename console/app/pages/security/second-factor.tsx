import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { formText } from '../../form-text.js';
import { security } from '../../security-api.js';
import { copyMessage, useCopy } from '../../ui/copy.js';
import { Notice, ProblemNotice } from '../../ui/problem.js';
import { SecretBox } from '../../ui/secret-box.js';
import { asProblem, useLoad } from '../../use-load.js';
import { QrCode } from './qr-code.js';

type Step = { at: 'idle' } | { at: 'scan'; secret: string; uri: string } | { at: 'codes'; codes: string[] };

/** The second factor: set up (QR code, confirm with a code, recovery codes once) or turn off. */
export function SecondFactorSection() {
  const user = useLoad(() => security.user(), []);
  const [step, setStep] = useState<Step>({ at: 'idle' });
  const [problem, setProblem] = useState<ApiProblem>();
  const [done, setDone] = useState<string>();

  /** Runs a form's action, showing the API's problem when it fails. */
  const act = (action: (form: FormData) => Promise<void>) => async (event: SubmitEvent) => {
    event.preventDefault();
    setProblem(undefined);
    setDone(undefined);
    try {
      await action(new FormData(event.currentTarget as HTMLFormElement));
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const start = act(async (form) => {
    const { secret, otpauth_uri } = await security.startTotp(formText(form, 'password'));
    setStep({ at: 'scan', secret, uri: otpauth_uri });
  });
  const confirm = act(async (form) => {
    const { recovery_codes } = await security.confirmTotp(formText(form, 'code'));
    setStep({ at: 'codes', codes: recovery_codes });
    await user.reload();
  });
  const disable = act(async (form) => {
    await security.disableTotp(formText(form, 'password'), formText(form, 'code'));
    setDone('The second factor is off: log-in asks for the password only.');
    await user.reload();
  });

  const enabled = user.data?.totp_enabled;
  return (
    <section aria-labelledby="second-factor-heading">
      <h2 id="second-factor-heading">Second factor</h2>
      <p>
        With an authenticator app, logging in asks for the 6-digit code it shows besides your password.{' '}
        {enabled === undefined ? null : enabled ? (
          <strong>On: {user.data?.recovery_codes_left} recovery codes left.</strong>
        ) : (
          <strong>Off.</strong>
        )}
      </p>
      {done ? <Notice>{done}</Notice> : null}
      <ProblemNotice problem={user.problem ?? problem} title="That did not work." />
      {step.at === 'codes' ? (
        <RecoveryCodes codes={step.codes} onDone={() => setStep({ at: 'idle' })} />
      ) : step.at === 'scan' ? (
        <div class="stack">
          <p>Scan this code with your authenticator app, or type the secret into it.</p>
          <QrCode text={step.uri} label="QR code of the authenticator secret" />
          <SecretBox secret={step.secret} label="Secret" />
          <form onSubmit={(event) => void confirm(event)} class="stack">
            <label>
              Code from the app
              <input name="code" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required />
            </label>
            <button type="submit" class="primary">
              Turn on
            </button>
          </form>
        </div>
      ) : enabled === false ? (
        <form onSubmit={(event) => void start(event)} class="stack">
          <label>
            Password
            <input name="password" type="password" autocomplete="current-password" required />
          </label>
          <button type="submit" class="primary">
            Set up an authenticator app
          </button>
        </form>
      ) : enabled ? (
        <form onSubmit={(event) => void disable(event)} class="stack">
          <label>
            Password
            <input name="password" type="password" autocomplete="current-password" required />
          </label>
          <label>
            Code from the app, or a recovery code
            <input name="code" autocomplete="one-time-code" required />
          </label>
          <button type="submit" class="danger">
            Turn off
          </button>
        </form>
      ) : null}
    </section>
  );
}

/** The recovery codes, shown this once, with one copy of them all. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { copy, copied } = useCopy(codes.join('\n'));
  return (
    <div class="stack">
      <Notice>The second factor is on.</Notice>
      <p>
        Keep these recovery codes somewhere safe: each logs in once in place of a code, if you lose the app. They are
        shown only now.
      </p>
      <ul class="recovery-codes mono" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div class="secret-row">
        <button type="button" onClick={copy}>
          Copy the codes
        </button>
        <button type="button" class="primary" onClick={onDone}>
          I have kept them
        </button>
      </div>
      <p class="hint" role="status">
        {copyMessage(copied, 'The browser refused the clipboard: select the codes and copy them.')}
      </p>
    </div>
  );
}
