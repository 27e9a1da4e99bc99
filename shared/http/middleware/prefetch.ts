import * as z from 'zod';
import { getProfile } from '../../store/profiles.js';
import { ReadBatch } from '../../store/read-batch.js';
import { loadSafetySets } from '../../store/safety.js';
import type { RouteDef } from '../contract/route.js';
import { Uuid } from '../contract/schemas/common.js';
import type { ApiMiddleware } from './api-event.js';

/** What a route may read before it knows the caller: its parsed path and query, and the claimed viewer. */
export interface PrefetchRequest<R extends RouteDef> {
  params: z.output<NonNullable<R['params']>>;
  query: z.output<NonNullable<R['query']>>;
  /** `X-Profile-Id` when a credential was sent with it; NOT yet checked: use viewer data only once `auth.actingProfile` is this profile. */
  viewerId: string | undefined;
}

export type Prefetch<R extends RouteDef, P> = (request: PrefetchRequest<R>, reads: ReadBatch) => Promise<P>;

const ignore = () => undefined;
const noInput = z.object({});

/**
 * Opens the request's read batch and starts, in the same tick as authentication, the reads whose
 * keys the request itself names: the acting profile of `X-Profile-Id` (and its safety sets: a
 * Query of its own, sent at the same moment) and the route's `load`.
 * With the credential they go out as one BatchGetItem, so a read with a viewer costs the round
 * trip of an anonymous one. Nothing read here reaches the caller before authentication and the
 * acting-profile check have passed; a failure here surfaces only where the handler awaits it, so
 * the order of checks (401, 403, 400 …) is unchanged.
 */
export const prefetch = <R extends RouteDef, P>(route: R, load: Prefetch<R, P> | undefined): ApiMiddleware => ({
  before: ({ event }) => {
    const reads = new ReadBatch();
    event.reads = reads;
    const header = event.headers?.['x-profile-id'];
    const claimed = route.actingProfile && event.headers?.authorization && header ? Uuid.safeParse(header) : undefined;
    const viewerId = claimed?.success ? claimed.data : undefined;
    if (viewerId) {
      getProfile(viewerId, reads).catch(ignore);
      // The viewer's blocks and mutes: one Query beside the credential's BatchGetItem, not after it.
      const sets = loadSafetySets(viewerId);
      sets.catch(ignore);
      event.safetyAhead = { profileId: viewerId, sets };
    }
    // A route that needs a credential reads nothing ahead for a request that sends none: it is refused 401.
    if (!load || (route.auth !== 'none' && !event.headers?.authorization)) return;
    const params = (route.params ?? noInput).safeParse(event.pathParameters ?? {});
    const query = (route.query ?? noInput).safeParse(event.queryStringParameters ?? {});
    // Invalid input is answered 400 by the handler's own parsing; nothing to read ahead for it.
    if (!params.success || !query.success) return;
    // The handler takes the input parsed here instead of parsing it again.
    event.input = { params: params.data, query: query.data };
    const loading = load({ params: params.data, query: query.data, viewerId } as PrefetchRequest<R>, reads);
    loading.catch(ignore);
    event.prefetched = loading;
  },
});
