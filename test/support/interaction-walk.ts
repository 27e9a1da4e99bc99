/**
 * The walk of the contract tests that try every interaction route of the route table (every
 * acting route that is not a GET): each route either has attempts or an exemption with its reason,
 * and each attempt's answer is checked. A new route that is neither fails the test that walks it.
 */
import { routeList, type RouteName } from '../../shared/http/contract/route-table.js';
import { call, type ApiResponse } from './api.js';

/** One request a route offers: its method, its path and its body. */
export type Attempt = { method: string; path: string; body?: unknown };

export interface InteractionWalk {
  /** Routes with neither attempts nor an exemption. */
  unclassified: string[];
  /** The attempts whose answer was not the expected one, with what they answered. */
  unexpected: string[];
}

/** Tries every interaction route not exempted, as `credential`, and notes what `expected` refuses. */
export async function walkInteractions(options: {
  exempt: Partial<Record<RouteName, string>>;
  attempts: (name: RouteName) => Attempt[] | undefined;
  credential: { token: string; profileId: string };
  expected: (response: ApiResponse) => boolean;
}): Promise<InteractionWalk> {
  const interactions = routeList.filter(
    (r) => r.method !== 'GET' && r.actingProfile !== undefined && !(r.name in options.exempt),
  );
  const walk: InteractionWalk = { unclassified: [], unexpected: [] };
  for (const route of interactions) {
    const tries = options.attempts(route.name);
    if (!tries) {
      walk.unclassified.push(route.name);
      continue;
    }
    for (const { method, path, body } of tries) {
      const response = await call(method, path, { ...options.credential, body });
      if (!options.expected(response))
        walk.unexpected.push(
          `${route.name} ${method} ${path} ${JSON.stringify(body)}: ${response.status} ${String(response.body.error_code ?? 'ok')}`,
        );
    }
  }
  return walk;
}
