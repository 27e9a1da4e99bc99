/**
 * The route table names each handler module by its place under functions/ (CDK and the local
 * server load it from there); the module names its route by passing it to httpHandler, which
 * records it on the Lambda. These tests hold the two to each other, so neither can drift.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Principal, SessionPrincipal } from '../../shared/auth/principal.js';
import type { ProfileRecord } from '../../shared/domain/entities.js';
import { routeList, routes, type RouteName } from '../../shared/http/contract/route-table.js';
import type { RouteAuth } from '../../shared/http/handler.js';
import { httpHandlerModules, OTHER_LAMBDA_ENTRIES } from '../../infra/local/handler-bundles.js';
import { sourceFiles } from '../support/import-graph.js';

const modules = new Map(
  await Promise.all(
    sourceFiles('functions').map(
      async (file) =>
        [file, (await import(/* @vite-ignore */ `../../${file}`)) as { handler?: { route?: unknown } }] as const,
    ),
  ),
);
const moduleOf = (handler: string) => `functions/${handler}.ts`;

describe('each handler module and its route', () => {
  it('finds the modules at all (the check itself works)', () => {
    expect(modules.size).toBeGreaterThan(routeList.length);
    expect(modules.get('functions/posts/create-post.ts')?.handler?.route).toBe(routes.createPost);
  });

  it('every route names a module whose handler was built for exactly that route', () => {
    const wrong = routeList.flatMap(({ name, handler }) => {
      const built = modules.get(moduleOf(handler))?.handler?.route;
      return built === routes[name] ? [] : [`${name} → ${moduleOf(handler)}: ${builtFor(built)}`];
    });
    expect(wrong).toEqual([]);
  });

  it('every Lambda module under functions/ is named by a route, is the $default or MCP function, or is one of the other Lambdas the stack deploys', () => {
    const named = new Set(httpHandlerModules().map(moduleOf));
    const others = new Set<string>(OTHER_LAMBDA_ENTRIES);
    const orphans = [...modules]
      .filter(([file, module]) => module.handler !== undefined && !named.has(file) && !others.has(file))
      .map(([file]) => file);
    expect(orphans).toEqual([]);
  });
});

/** Which route a handler was built for, by name, for the failure message. */
function builtFor(route: unknown): string {
  const name = (Object.keys(routes) as RouteName[]).find((key) => routes[key] === route);
  return name ? `built for ${name}` : 'not built by httpHandler for a route of the table';
}

describe("the caller a route's handler gets (types only)", () => {
  it('is defined where the route needs a credential, and the acting profile where X-Profile-Id is required', () => {
    expectTypeOf<RouteAuth<typeof routes.createPost>['principal']>().toEqualTypeOf<Principal>();
    expectTypeOf<RouteAuth<typeof routes.createPost>['actingProfile']>().toEqualTypeOf<ProfileRecord>();
    expectTypeOf<RouteAuth<typeof routes.getMe>['principal']>().toEqualTypeOf<SessionPrincipal>();
    expectTypeOf<RouteAuth<typeof routes.getMe>['actingProfile']>().toEqualTypeOf<ProfileRecord | undefined>();
    expectTypeOf<RouteAuth<typeof routes.getPost>['principal']>().toEqualTypeOf<Principal | undefined>();
    expectTypeOf<RouteAuth<typeof routes.getPost>['actingProfile']>().toEqualTypeOf<ProfileRecord | undefined>();
  });
});
