import type { AuthKind, Principal } from '../../auth/principal.js';
import { authorizeRoute, resolvePrincipal, sentCredential } from '../../auth/authenticate.js';
import { sessionTouch } from '../../domain/entities.js';
import type { RequiredScope } from '../../domain/scopes.js';
import { logger } from '../../logger.js';
import { touchSession } from '../../store/sessions.js';
import type { ApiEvent, ApiMiddleware } from './api-event.js';

export interface AuthenticateOptions {
  auth: AuthKind;
  /** Required of API keys when `auth` is `credential`. */
  scope?: RequiredScope | undefined;
}

/** The session's `last_used_at` write, when it is stale: started now, waited for with the response. */
const touches = new WeakMap<object, Promise<void>>();

function startTouch(event: ApiEvent, principal: Principal | undefined, now: Date): void {
  if (principal?.kind !== 'session') return;
  const touch = sessionTouch(principal.session, now);
  if (!touch) return;
  touches.set(
    event,
    touchSession(principal.session.id, touch.touched, touch.staleBefore).catch((error: unknown) => {
      // The time is a courtesy to the sessions list, not the request's work.
      logger.warn('session last_used_at not written', { error });
    }),
  );
}

const awaitTouch = ({ event }: { event: ApiEvent }): Promise<void> | void => touches.get(event);

/**
 * Resolves `Authorization: Bearer …` to the caller and checks it against the route's auth kind
 * and scope (401 / 403), before the body is parsed. Stamps the request's `now`, so every record
 * the request writes carries one time. A request without a credential has nothing to wait for,
 * and is checked at once. A session whose `last_used_at` is stale gets it written beside the
 * handler's work (no round trip in the request's path; at most one write per session per
 * SESSION_TOUCH_MINUTES), finished before the response leaves.
 */
export const authenticate = ({ auth, scope }: AuthenticateOptions): ApiMiddleware => {
  const admit = (event: ApiEvent, principal: Principal | undefined) => {
    authorizeRoute(principal, auth, scope);
    event.auth = { principal, actingProfile: undefined };
    startTouch(event, principal, event.now!);
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
    after: awaitTouch,
    onError: awaitTouch,
  };
};
