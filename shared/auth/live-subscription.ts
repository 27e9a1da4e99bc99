/**
 * Who may do what on the AppSync Events API of the live events (API.md "Live"): its Lambda
 * authoriser answers for connections and subscriptions. It accepts this API's own credentials
 * (session token, API key or OAuth access token, resolved as every route resolves them), each
 * needing `events:read` as the poll route does, and lets one subscribe only to the channel of a
 * profile of one's own (`/profiles/{id}`: attached to the key or grant, or of a workspace the
 * session's user belongs to). Clients never publish: the live publisher does, with IAM.
 */
import { profileOfChannel } from '../domain/live-channels.js';
import { isSuspended } from '../domain/reports.js';
import { AppError } from '../errors.js';
import { logger } from '../logger.js';
import { getProfile } from '../store/profiles.js';
import { isOwnProfile } from './acting-profile.js';
import { authorizeRoute, resolvePrincipal } from './authenticate.js';

/** What AppSync Events sends its Lambda authoriser. */
export interface EventsAuthorizerEvent {
  /** The `Authorization` the client sent with its connection or subscribe message. */
  authorizationToken: string;
  requestContext: {
    apiId?: string;
    accountId?: string;
    requestId?: string;
    operation: 'EVENT_CONNECT' | 'EVENT_SUBSCRIBE' | 'EVENT_PUBLISH';
    channelNamespaceName?: string;
    channel?: string;
  };
  requestHeaders?: Record<string, string>;
}

export interface EventsAuthorizerResult {
  isAuthorized: boolean;
  /**
   * Seconds AppSync may reuse this answer for the same token: none. A cached yes for one channel
   * must not answer another profile's channel, and a logged-out session or revoked key is refused
   * at its next connection or subscription.
   */
  ttlOverride: number;
}

const answer = (isAuthorized: boolean): EventsAuthorizerResult => ({ isAuthorized, ttlOverride: 0 });

/** The header as the routes take it: `Bearer <token>`, the scheme added when a client sent the bare token. */
const asBearer = (token: string) => (/^Bearer\s/i.test(token.trim()) ? token : `Bearer ${token.trim()}`);

export async function authorizeLiveRequest(event: EventsAuthorizerEvent, now: Date): Promise<EventsAuthorizerResult> {
  const { operation, channel } = event.requestContext;
  const deny = (reason: string) => {
    logger.info('live subscription refused', { operation, channel, reason });
    return answer(false);
  };
  if (operation === 'EVENT_PUBLISH') return deny('clients do not publish');
  try {
    const principal = await resolvePrincipal(asBearer(event.authorizationToken ?? ''), now);
    authorizeRoute(principal, 'credential', 'events:read');
    if (operation === 'EVENT_CONNECT') return answer(true);
    const profileId = profileOfChannel(channel ?? '');
    if (!profileId) return deny('not a profile channel');
    const profile = await getProfile(profileId);
    if (!profile || !(await isOwnProfile(principal!, profile))) return deny('not a profile of the caller');
    // As a suspended profile cannot be acted as on the routes (403 profile_suspended).
    if (isSuspended(profile)) return deny('profile suspended');
    return answer(true);
  } catch (error) {
    if (error instanceof AppError) return deny(error.code);
    throw error;
  }
}
