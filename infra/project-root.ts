import { fileURLToPath } from 'node:url';

/** The repository root, so entries resolve the same whether cdk, vitest or tsx runs from elsewhere. */
const root = fileURLToPath(new URL('../', import.meta.url));

export const projectPath = (...relative: string[]): string =>
  relative.length ? `${root}${relative.join('/')}` : root.replace(/\/$/, '');
