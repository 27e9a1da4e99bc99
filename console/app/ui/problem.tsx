import type { ApiProblem } from '@social-network/sdk';
import { inHumanWords } from './human-words.js';

/** An error the API answered, in words for a person (human-words.ts), with the API's code. */
export function ProblemNotice({ problem, title }: { problem?: ApiProblem; title?: string }) {
  if (!problem) return null;
  const { message, hint } = inHumanWords(problem);
  return (
    <div class="notice notice-error" role="alert">
      <p>
        <strong>{title ?? 'That did not work.'}</strong> {message}
      </p>
      {hint ? <p class="hint">{hint}</p> : null}
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
