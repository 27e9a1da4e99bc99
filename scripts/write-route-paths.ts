/** `npm run routes:paths`: rewrites the `$default` function's list of paths from the route table. */
import { writeFileSync } from 'node:fs';
import { projectPath } from '../infra/project-root.js';
import { ROUTE_PATHS_FILE, routePathsSource } from '../infra/route-paths.js';

writeFileSync(projectPath(ROUTE_PATHS_FILE), routePathsSource());
console.log(`Route paths written to ${ROUTE_PATHS_FILE}`);
