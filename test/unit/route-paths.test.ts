import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routePaths } from '../../functions/system/route-paths.js';
import { routeList } from '../../functions/routes.js';
import { projectPath } from '../../infra/project-root.js';
import { ROUTE_PATHS_FILE, routePathsSource } from '../../infra/route-paths.js';

describe("the $default function's paths", () => {
  it('are the route table as it is now (run `npm run routes:paths` when this fails)', () => {
    // Compared line by line so that a failure shows which route moved.
    expect(readFileSync(projectPath(ROUTE_PATHS_FILE), 'utf8').split('\n')).toEqual(routePathsSource().split('\n'));
    expect(routePaths.map(({ method, path }) => `${method} ${path}`)).toEqual(routeList.map(({ method, path }) => `${method} ${path}`));
  });
});
