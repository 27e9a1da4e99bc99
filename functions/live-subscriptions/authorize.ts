/**
 * Lambda: the AppSync Events API's authoriser (shared/auth/live-subscription.ts): connections and
 * subscriptions to `/profiles/{id}` with this API's credentials. Only the credential and profile
 * reads: no HTTP stack, so its bundle stays small.
 */
import { authorizeLiveRequest, type EventsAuthorizerEvent } from '../../shared/auth/live-subscription.js';

export const handler = (event: EventsAuthorizerEvent) => authorizeLiveRequest(event, new Date());
