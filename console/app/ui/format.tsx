import { Fragment } from 'preact';

/** Dates in the reader's locale and time zone, with the exact instant on hover. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={at}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status}`}>{status}</span>;
}

/**
 * A URL that wraps only after its separators (`/`, `.`, `?`, `&`, `=`), so a narrow column breaks
 * it between its parts instead of inside a host name or a word.
 */
export function Url({ href }: { href: string }) {
  const parts = href.split(/(?<=[/.?&=])/);
  return (
    <span class="mono url">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
