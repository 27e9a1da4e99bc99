import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import type { AuthContext } from '../auth/principal.js';
import { rawJsonResponse, successResponse } from './envelope.js';
import { actingProfile } from './middleware/acting-profile.js';
import type { ApiEvent, HttpLambda } from './middleware/api-event.js';
import { authenticate } from './middleware/authenticate.js';
import { bodyLimit } from './middleware/body-limit.js';
import { prefetch, type Prefetch } from './middleware/prefetch.js';
import type { ReadBatch } from '../store/read-batch.js';
import { errorEnvelope } from './middleware/error-envelope.js';
import { idempotency } from './middleware/idempotency.js';
import { rateLimit } from './middleware/rate-limit.js';
import type { RouteDef } from './contract/route.js';
import { parseInput } from './validation.js';

export interface HandlerInput<R extends RouteDef> {
  params: z.output<NonNullable<R['params']>>;
  query: z.output<NonNullable<R['query']>>;
  body: z.output<NonNullable<R['body']>>;
  auth: AuthContext;
  now: Date;
  event: APIGatewayProxyEventV2;
  /** This request's point reads: a key the middlewares or the route's prefetch read is not read again. */
  reads: ReadBatch;
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

/** Data with service guidance for the caller (agent.hint); the hint never carries user content. */
export class Hinted<D> {
  constructor(
    readonly data: D,
    readonly hint: string,
  ) {}
}
export const withHint = <D>(data: D, hint: string): Hinted<D> => new Hinted(data, hint);

type Data<R extends RouteDef> = z.input<R['response']>;
type Fn<R extends RouteDef, P, Ports> = (
  input: HandlerInput<R> & { prefetched: Promise<P>; ports: Ports },
) => Promise<Data<R> | Hinted<Data<R>>>;

/** A route's Lambda handler, and the same handler with other ports (what the local runtime runs). */
export type RouteLambda<Ports> = HttpLambda & { withPorts(ports: Ports): HttpLambda };

export type { HttpLambda } from './middleware/api-event.js';

/** One schema for routes without path or query input: zod compiles a schema on its first parse, so not one per request. */
const noInput = z.object({});

/**
 * Builds the Lambda handler for one route of the route table: rate limit, header normalisation,
 * size limit, authentication, JSON body, zod validation, acting profile, Idempotency-Key, then
 * `fn`, inside the one error envelope. The route's definition is the only place its auth, scope,
 * schemas, limits and idempotency are stated.
 */
export function httpHandler<R extends RouteDef, P = undefined, Ports = undefined>(
  route: R,
  fn: Fn<R, NoInfer<P>, NoInfer<Ports>>,
  options: HandlerOptions<R, P, Ports> = {},
): RouteLambda<Ports> {
  let defaultPorts: Ports | undefined;
  const lambda = (portsOf: () => Ports) => stackOf(route, fn, options, portsOf);
  return Object.assign(
    lambda(() => (defaultPorts ??= options.ports?.() as Ports)),
    { withPorts: (ports: Ports) => lambda(() => ports) },
  );
}

function stackOf<R extends RouteDef, P, Ports>(
  route: R,
  fn: Fn<R, P, Ports>,
  options: HandlerOptions<R, P, Ports>,
  portsOf: () => Ports,
): HttpLambda {
  const core = async (event: ApiEvent): Promise<APIGatewayProxyStructuredResultV2> => {
    if (event.idempotentReplay) return event.idempotentReplay;
    const params = parseInput('path', route.params ?? noInput, event.pathParameters ?? {});
    const query = parseInput('query', route.query ?? noInput, event.queryStringParameters ?? {});
    const body = route.body ? parseInput('body', route.body, event.body) : undefined;
    const input = {
      params,
      query,
      body,
      auth: event.auth,
      now: event.now,
      event,
      reads: event.reads,
      prefetched: event.prefetched,
      ports: portsOf(),
    };
    const result = await fn(input as unknown as Parameters<Fn<R, P, Ports>>[0]);
    if (route.raw) return rawJsonResponse(route.status, result);
    return result instanceof Hinted
      ? successResponse(route.status, result.data, result.hint)
      : successResponse(route.status, result);
  };

  const limits = rateLimit({ strict: route.strictLimits, deferWithoutCredential: route.method === 'GET' });
  const stack = middy<ApiEvent, APIGatewayProxyStructuredResultV2, Error, Context>(core);
  // First in, so its after/onError run last and put the RateLimit headers on every response.
  stack.use(limits.count);
  stack.use(errorEnvelope());
  stack.use(httpHeaderNormalizer());
  stack.use(bodyLimit());
  stack.use(prefetch(route, options.prefetch));
  stack.use(authenticate(route));
  if (route.body) stack.use(httpJsonBodyParser());
  stack.use(limits.enforce);

  if (route.actingProfile) stack.use(actingProfile(route.actingProfile));
  if (route.idempotent) stack.use(idempotency());

  // The middlewares add `auth` and `now` to the event, so the handler accepts the plain event.
  return stack as unknown as HttpLambda;
}
