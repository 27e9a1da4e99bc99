import { copyMessage, useCopy } from '../ui/copy.js';

/** The body as the API answers it, indented for reading (the text itself if it is not JSON). */
const formatted = (payload: string) => {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
};

/** The body every attempt of the delivery sent, or why it cannot be shown (its event expired). */
export function DeliveryPayload({ payload }: { payload: string | null }) {
  return (
    <section aria-labelledby="payload-title">
      <h2 id="payload-title">Payload</h2>
      {payload === null ? (
        <p class="notice" role="note">
          This delivery's event has expired, so the API no longer keeps the body it sent. The attempts below are kept
          until the delivery expires too.
        </p>
      ) : (
        <SentPayload payload={payload} />
      )}
    </section>
  );
}

function SentPayload({ payload }: { payload: string }) {
  const { copy, copied } = useCopy(payload);
  const bytes = new TextEncoder().encode(payload).length;
  return (
    <>
      <p class="hint">
        Formatted for reading. Every attempt sent the compact text (under “The text as sent”), byte for byte, and signed{' '}
        <code>{'{webhook-id}.{webhook-timestamp}.{text}'}</code>: check a signature against that text, which{' '}
        <strong>Copy payload</strong> copies.
      </p>
      <p class="copy-row">
        <button type="button" onClick={copy}>
          Copy payload
        </button>{' '}
        <span class="hint" role="status">
          {copyMessage(copied, 'The browser refused the clipboard: select the text as sent below and copy it.')}
        </span>
      </p>
      <pre class="code-block">{formatted(payload)}</pre>
      <details>
        <summary>The text as sent ({bytes} bytes)</summary>
        <textarea
          class="mono payload-sent"
          aria-label="Payload as sent"
          readOnly
          rows={4}
          value={payload}
          onFocus={(e) => e.currentTarget.select()}
        />
      </details>
    </>
  );
}
