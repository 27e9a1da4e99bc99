/**
 * No import circle anywhere in the source tree: a module's imports point one way, so each file can
 * be read (and bundled, and loaded) from the bottom up. Type-only imports count too: a circle of
 * types is the same knot in the design, and is how a circle of values starts.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from '../support/import-graph.js';

const trees = ['shared', 'functions', 'infra', 'scripts', 'console', 'sdk/src', 'sdk/tools', 'sdk/examples', 'test'];
const root = new URL('../../', import.meta.url);

/** The source file a local import names (`x.js` is `x.ts` or `x.tsx`; a folder is its index). */
function sourceOf(target: string): string | undefined {
  const base = target.replace(/\.(js|jsx|ts|tsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((file) =>
    existsSync(new URL(file, root)),
  );
}

/** `file → the local source files it imports`, over the given trees. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const files = dirs.filter((dir) => existsSync(new URL(dir, root))).flatMap((dir) => sourceFiles(dir));
  return new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .filter((target) => !target.startsWith('@') && target.includes('/'))
        .map(sourceOf)
        .filter((target): target is string => target !== undefined),
    ]),
  );
}

/** Every circle, each once, as the files around it (first file again at the end). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

describe('the imports of the whole source tree', () => {
  it('finds a circle where there is one (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('resolves local imports to their source files', () => {
    expect(importGraph(['shared/webhooks']).get('shared/webhooks/deliver.ts')).toContain('shared/webhooks/prepare.ts');
  });

  it('has no import circle', () => {
    expect(circles(importGraph(trees)).map((circle) => circle.join(' → '))).toEqual([]);
  });
});
