/**
 * `functions/system/route-paths.ts`, derived from the route table: the method and path of every
 * route, which is all `$default` needs to tell 404 from 405. Importing the route table itself would
 * put every route's zod schemas into that Lambda. `npm run routes:paths` rewrites the file and a
 * unit test fails while it differs from what this function generates.
 */
import { routeList } from '../functions/routes.js';

export const ROUTE_PATHS_FILE = 'functions/system/route-paths.ts';

export function routePathsSource(): string {
  const lines = routeList.map((route) => `  { method: '${route.method}', path: '${route.path}' },`);
  return [
    `// Generated from the route table (functions/routes.ts) by \`npm run routes:paths\`; do not edit.`,
    `import type { MatchableRoute } from '../../shared/http/route-match.js';`,
    ``,
    `export const routePaths: readonly MatchableRoute[] = [`,
    ...lines,
    `];`,
    ``,
  ].join('\n');
}
