/**
 * API key scopes: `<resource>:read|write|all` plus `all:read|write|all`.
 * `write` does not imply `read`; `all` implies both, on a resource or on every resource.
 */
export const SCOPE_RESOURCES = [
  'profiles',
  'posts',
  'comments',
  'follows',
  'messages',
  'profile_access',
  'media',
  'safety',
  'notifications',
  'events',
] as const;
export const SCOPE_ACTIONS = ['read', 'write', 'all'] as const;

export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type ScopeAction = (typeof SCOPE_ACTIONS)[number];
export type Scope = `${ScopeResource | 'all'}:${ScopeAction}`;
/** What a route requires: a concrete resource and a concrete action. */
export type RequiredScope = `${ScopeResource}:${'read' | 'write'}`;

export const SCOPES = [...SCOPE_RESOURCES, 'all' as const].flatMap((resource) =>
  SCOPE_ACTIONS.map((action) => `${resource}:${action}`),
) as [Scope, ...Scope[]];

/** The scopes that satisfy `required`, narrowest first (e.g. posts:write, posts:all, all:write, all:all). */
export function acceptedScopes(required: RequiredScope): Scope[] {
  const [resource, action] = required.split(':') as [ScopeResource, 'read' | 'write'];
  return [`${resource}:${action}`, `${resource}:all`, `all:${action}`, 'all:all'];
}

export function hasScope(granted: readonly string[], required: RequiredScope): boolean {
  return acceptedScopes(required).some((scope) => granted.includes(scope));
}
