import type { HttpMethod } from './contract/route.js';

export interface MatchableRoute {
  method: HttpMethod;
  path: string;
}

interface CompiledRoute<R extends MatchableRoute> {
  route: R;
  pattern: RegExp;
  names: string[];
  /** The template's text before its first parameter: a path that does not start with it cannot match. */
  prefix: string;
}

export type RouteMatch<R extends MatchableRoute> =
  | { kind: 'found'; route: R; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: HttpMethod[] }
  | { kind: 'not_found' };

/** Matches a method and path against API Gateway style templates, as API Gateway would. */
export function routeMatcher<R extends MatchableRoute>(routes: readonly R[]) {
  const compiled: CompiledRoute<R>[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const brace = route.path.indexOf('{');
    return {
      route,
      pattern: new RegExp(`^${source}$`),
      names,
      prefix: brace === -1 ? route.path : route.path.slice(0, brace),
    };
  });
  // Literal segments win over parameters (`/invitations/{id}` vs `/{grant_id}/resend`): fewer params first.
  compiled.sort((a, b) => a.names.length - b.names.length);
  // A parameter matches within one segment, so a path can only match templates with as many
  // slashes: each request tries those, in the same order, instead of every route.
  const bySlashes = new Map<number, CompiledRoute<R>[]>();
  for (const entry of compiled) {
    const slashes = slashCount(entry.route.path);
    bySlashes.set(slashes, [...(bySlashes.get(slashes) ?? []), entry]);
  }

  return (method: string, path: string): RouteMatch<R> => {
    const allowed: HttpMethod[] = [];
    for (const { route, pattern, names, prefix } of bySlashes.get(slashCount(path)) ?? []) {
      if (!path.startsWith(prefix)) continue;
      const match = pattern.exec(path);
      if (!match) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) params[names[i]!] = safeDecode(match[i + 1]!);
      return { kind: 'found', route, params };
    }
    return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  };
}

function slashCount(path: string): number {
  let count = 0;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) count++;
  return count;
}

function safeDecode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // left as sent; validation of the parameter rejects it
  }
}
