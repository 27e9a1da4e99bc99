import { scopeSentence } from '../scope-words.js';

/** A credential's scopes as tags, each explained in words on hover. */
export function ScopeTags({ scopes }: { scopes: readonly string[] }) {
  return (
    <>
      {scopes.map((scope) => (
        <code key={scope} class="tag" title={scopeSentence(scope)}>
          {scope}
        </code>
      ))}
    </>
  );
}
