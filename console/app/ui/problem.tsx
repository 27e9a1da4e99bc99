import type { ApiProblem } from '@social-network/sdk';

/** An error the API answered, in its own words: the envelope's message, hint and code. */
export function ProblemNotice({ problem, title }: { problem?: ApiProblem; title?: string }) {
  if (!problem) return null;
  return (
    <div class="notice notice-error" role="alert">
      <p>
        <strong>{title ?? 'That did not work.'}</strong> {problem.message}
      </p>
      {problem.hint ? <p class="hint">{problem.hint}</p> : null}
      {problem.status ? (
        <p class="code">
          HTTP {problem.status} · <code>{problem.code}</code>
        </p>
      ) : null}
    </div>
  );
}

export function Notice({ children }: { children: preact.ComponentChildren }) {
  return (
    <div class="notice notice-ok" role="status">
      {children}
    </div>
  );
}
