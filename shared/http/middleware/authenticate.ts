import type { AuthKind, Principal } from '../../auth/principal.js';
import { authorizeRoute, resolvePrincipal, sentCredential } from '../../auth/authenticate.js';
import type { RequiredScope } from '../../domain/scopes.js';
import type { ApiEvent, ApiMiddleware } from './api-event.js';

export interface AuthenticateOptions {
  auth: AuthKind;
  /** Required of API keys when `auth` is `credential`. */
  scope?: RequiredScope | undefined;
}

/**
 * Resolves `Authorization: Bearer …` to the caller and checks it against the route's auth kind
 * and scope (401 / 403), before the body is parsed. Stamps the request's `now`, so every record
 * the request writes carries one time. A request without a credential has nothing to wait for,
 * and is checked at once.
 */
export const authenticate = ({ auth, scope }: AuthenticateOptions): ApiMiddleware => {
  const admit = (event: ApiEvent, principal: Principal | undefined) => {
    authorizeRoute(principal, auth, scope);
    event.auth = { principal, actingProfile: undefined };
  };
  return {
    before: ({ event }) => {
      event.now = new Date();
      const authorization = event.headers?.authorization;
      if (!sentCredential(authorization)) return admit(event, undefined);
      return resolvePrincipal(authorization, event.now, event.reads, event.audience).then((principal) =>
        admit(event, principal),
      );
    },
  };
};
