import { copyMessage, useCopy } from './copy.js';

/** A signing secret shown once, with a copy button (the API never shows it again). */
export function SecretBox({ secret, label, note }: { secret: string; label: string; note?: string }) {
  const { copy, copied } = useCopy(secret);
  const id = `secret-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="secret">
      <label for={id}>{label}</label>
      <div class="secret-row">
        <input id={id} class="mono" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="hint" role="status">
        {copyMessage(copied, 'The browser refused the clipboard: select the secret and copy it.')}
        {note}
      </p>
    </div>
  );
}
