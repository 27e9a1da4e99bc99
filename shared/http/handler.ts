import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import type { AuthContext, Principal, SessionPrincipal } from '../auth/principal.js';
import type { ProfileRecord } from '../domain/entities.js';
import { NO_VIEWER_FILTER, type ViewerFilter } from '../domain/safety.js';
import { rawJsonResponse, successResponse } from './envelope.js';
import { actingProfile } from './middleware/acting-profile.js';
import type { ApiEvent, HttpLambda } from './middleware/api-event.js';
import { authenticate } from './middleware/authenticate.js';
import { bodyLimit } from './middleware/body-limit.js';
import { lowerCaseHeaders } from './middleware/header-case.js';
import { prefetch, type Prefetch } from './middleware/prefetch.js';
import { publicCache } from './middleware/public-cache.js';
import type { ReadBatch } from '../store/read-batch.js';
import { errorEnvelope } from './middleware/error-envelope.js';
import { idempotency } from './middleware/idempotency.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import type { RouteDef } from './contract/route.js';
import { parseInput } from './validation.js';
import { runAudited } from '../audit/write-context.js';
import { pendingStamp } from './audit-stamp.js';

/**
 * The caller as the route's definition guarantees it once the middlewares have passed: a
 * principal on every route that needs a credential (a session's on `session` routes), and the
 * acting profile where `X-Profile-Id` is required.
 */
export interface RouteAuth<R extends RouteDef> {
  principal: 'none' extends R['auth']
    ? Principal | undefined
    : 'credential' extends R['auth']
      ? Principal
      : SessionPrincipal;
  actingProfile: 'none' extends R['auth']
    ? ProfileRecord | undefined
    : NonNullable<R['actingProfile']>['required'] extends true
      ? ProfileRecord
      : ProfileRecord | undefined;
}

export interface HandlerInput<R extends RouteDef> {
  params: z.output<NonNullable<R['params']>>;
  query: z.output<NonNullable<R['query']>>;
  body: z.output<NonNullable<R['body']>>;
  auth: RouteAuth<R>;
  now: Date;
  event: APIGatewayProxyEventV2;
  /** This request's point reads: a key the middlewares or the route's prefetch read is not read again. */
  reads: ReadBatch;
  /** What the acting profile's blocks and mutes hide from it; NO_VIEWER_FILTER without an acting profile. */
  viewer: ViewerFilter;
}

export interface HandlerOptions<R extends RouteDef, P, Ports> {
  /** Reads the route can start before the caller is known (see middleware/prefetch.ts); the handler gets the promise. */
  prefetch?: Prefetch<R, P>;
  /**
   * The handler's collaborators outside the table (e.g. the deliveries queue), built on the first
   * request that runs the handler: the AWS adapters from config, as in Lambda. The local runtime
   * passes its in-process ones with `withPorts`.
   */
  ports?: () => Ports;
}

/**
 * Data with service guidance for the caller (agent.hint; it never carries user content) and/or
 * response headers of its own (e.g. `Retry-After` while a media is processed).
 */
export class Hinted<D> {
  constructor(
    readonly data: D,
    readonly hint: string | undefined,
    readonly headers?: Record<string, string>,
    /** The route's `existingStatus` instead of its `status`. */
    readonly status?: 200,
  ) {}
}
export const withHint = <D>(data: D, hint: string): Hinted<D> => new Hinted(data, hint);
export const withHeaders = <D>(data: D, headers: Record<string, string>): Hinted<D> =>
  new Hinted(data, undefined, headers);
/** Answers with the route's `existingStatus` (it already existed), with guidance. */
export const withStatus = <D>(data: D, status: 200, hint: string): Hinted<D> =>
  new Hinted(data, hint, undefined, status);

/**
 * The whole answer of a `raw` route whose RFC fixes more than a JSON body (OAuth: a redirect, an
 * error status with its own body, `Cache-Control: no-store`): sent as it is.
 */
export class RawAnswer {
  constructor(readonly response: APIGatewayProxyStructuredResultV2) {}
}

type Answer<R extends RouteDef> = z.input<R['response']> | Hinted<z.input<R['response']>> | RawAnswer;
type Fn<R extends RouteDef, P, Ports> = (
  input: HandlerInput<R> & { prefetched: Promise<P>; ports: Ports },
) => Answer<R> | Promise<Answer<R>>;

export type { HttpLambda } from './middleware/api-event.js';

/**
 * A route's Lambda, carrying the route it was built for (a test holds it to the route table's
 * entry), and the same handler with other ports (what the local runtime runs).
 */
export type RouteLambda<R extends RouteDef = RouteDef, Ports = unknown> = HttpLambda & {
  readonly route: R;
  withPorts(ports: Ports): HttpLambda;
};

/** One schema for routes without path or query input: zod compiles a schema on its first parse, so not one per request. */
const noInput = z.object({});

/** What a route without a prefetch gets as `prefetched`. */
const nothingPrefetched = Promise.resolve(undefined);

/** Whether the middlewares established the caller as RouteAuth promises the handler. */
function meetsRoute(route: RouteDef, auth: AuthContext): boolean {
  if (route.auth === 'none') return true;
  if (!auth.principal || (route.auth === 'session' && auth.principal.kind !== 'session')) return false;
  return !route.actingProfile?.required || auth.actingProfile !== undefined;
}

/**
 * Builds the Lambda handler for one route of the route table: rate limit, header normalisation,
 * size limit, authentication, JSON body, zod validation, acting profile, Idempotency-Key, then
 * `fn`, inside the one error envelope; a public read's anonymous answer gets its cache headers. The route's definition is the only place its auth, scope,
 * schemas, limits and idempotency are stated, and the returned Lambda carries it as `route`.
 *
 * The signature types `fn`'s input by the route (its schemas' outputs, RouteAuth); the body below
 * works on any route, parses each part with the route's own schema and checks the caller against
 * the route before `fn` runs.
 */
export function httpHandler<R extends RouteDef, P = undefined, Ports = undefined>(
  route: R,
  fn: Fn<R, NoInfer<P>, NoInfer<Ports>>,
  options?: HandlerOptions<R, P, Ports>,
): RouteLambda<R, Ports>;
export function httpHandler(
  route: RouteDef,
  fn: Fn<RouteDef, unknown, unknown>,
  options: HandlerOptions<RouteDef, unknown, unknown> = {},
): RouteLambda {
  let defaultPorts: unknown;
  const lambda = (portsOf: () => unknown) => stackOf(route, fn, options, portsOf);
  return Object.assign(
    lambda(() => (defaultPorts ??= options.ports?.())),
    { route, withPorts: (ports: unknown) => lambda(() => ports) },
  );
}

function stackOf(
  route: RouteDef,
  fn: Fn<RouteDef, unknown, unknown>,
  options: HandlerOptions<RouteDef, unknown, unknown>,
  portsOf: () => unknown,
): HttpLambda {
  const core = async (event: ApiEvent): Promise<APIGatewayProxyStructuredResultV2> => {
    if (event.idempotentReplay) return event.idempotentReplay;
    const { auth, now, reads } = event;
    if (!auth || !now || !reads || !meetsRoute(route, auth))
      throw new Error(`${route.handler}: the middlewares did not establish the caller the route declares`);
    const stamp = pendingStamp(route, event, auth, now);
    const run = () =>
      fn({
        params: event.input
          ? event.input.params
          : parseInput('path', route.params ?? noInput, event.pathParameters ?? {}),
        query: event.input
          ? event.input.query
          : parseInput('query', route.query ?? noInput, event.queryStringParameters ?? {}),
        body: route.body ? parseInput('body', route.body, event.body) : undefined,
        auth,
        now,
        event,
        reads,
        viewer: event.viewer ?? NO_VIEWER_FILTER,
        prefetched: event.prefetched ?? nothingPrefetched,
        ports: portsOf(),
      });
    // A write route's function runs in its audit scope: its first write with a subject carries
    // the stamp the audit log is recorded from (store/audit-stamp.ts).
    const result = await (stamp ? runAudited(stamp, run) : run());
    if (result instanceof RawAnswer) return result.response;
    if (route.raw) return rawJsonResponse(route.status, result);
    return result instanceof Hinted
      ? successResponse(result.status ?? route.status, result.data, result.hint, result.headers)
      : successResponse(route.status, result);
  };

  const limits = rateLimit({ strict: route.strictLimits, deferWithoutCredential: route.method === 'GET' });
  const stack = middy<ApiEvent, APIGatewayProxyStructuredResultV2, Error, Context>(core);
  // First in, so their after/onError run last and put X-Request-Id and the RateLimit headers on
  // every response.
  stack.use(requestId());
  stack.use(limits.count);
  stack.use(errorEnvelope());
  stack.use(lowerCaseHeaders());
  stack.use(bodyLimit());
  stack.use(prefetch(route, options.prefetch));
  stack.use(authenticate(route));
  if (route.body) stack.use(httpJsonBodyParser());
  stack.use(limits.enforce);

  if (route.actingProfile) stack.use(actingProfile(route.actingProfile));
  if (route.idempotent) stack.use(idempotency());
  if (route.publicCache) stack.use(publicCache());

  return stack;
}
