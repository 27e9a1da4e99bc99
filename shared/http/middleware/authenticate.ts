import type { AuthKind } from '../../auth/principal.js';
import { authorizeRoute, resolvePrincipal } from '../../auth/authenticate.js';
import type { RequiredScope } from '../../domain/scopes.js';
import type { ApiMiddleware } from './api-event.js';

export interface AuthenticateOptions {
  auth: AuthKind;
  /** Required of API keys when `auth` is `credential`. */
  scope?: RequiredScope | undefined;
}

/**
 * Resolves `Authorization: Bearer …` to the caller and checks it against the route's auth kind
 * and scope (401 / 403), before the body is parsed. Stamps the request's `now`, so every record
 * the request writes carries one time.
 */
export const authenticate = ({ auth, scope }: AuthenticateOptions): ApiMiddleware => ({
  before: async ({ event }) => {
    event.now = new Date();
    const principal = await resolvePrincipal(event.headers?.authorization, event.now, event.reads, event.audience);
    authorizeRoute(principal, auth, scope);
    event.auth = { principal, actingProfile: undefined };
  },
});
