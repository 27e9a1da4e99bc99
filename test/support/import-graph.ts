import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The TypeScript sources (.ts, .tsx) under a repo-relative folder, as repo-relative paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Every module a file imports: repo-relative paths for local modules, package names otherwise. */
export function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => (s.startsWith('.') ? relative(root, resolve(dirname(join(root, file)), s)) : s));
}

/** `file → target` for every import under `dirs` that `forbidden` rejects. */
export function offenders(dirs: string[], forbidden: (target: string) => boolean): string[] {
  return dirs.flatMap((dir) =>
    sourceFiles(dir).flatMap((file) =>
      importsOf(file)
        .filter(forbidden)
        .map((target) => `${file} → ${target}`),
    ),
  );
}
