import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { z } from 'zod';
import { resolveActingProfile } from '../auth/acting-profile.js';
import { authorizeRoute, resolvePrincipal } from '../auth/authenticate.js';
import type { AuthContext } from '../auth/principal.js';
import { Uuid } from './schemas/common.js';
import { ApiError } from './errors.js';
import { rawJsonResponse, successResponse } from './envelope.js';
import { bodyLimit } from './middleware/body-limit.js';
import { errorEnvelope } from './middleware/error-envelope.js';
import type { RouteDef } from './route.js';
import { parseInput } from './validation.js';

export interface HandlerInput<R extends RouteDef> {
  params: z.output<NonNullable<R['params']>>;
  query: z.output<NonNullable<R['query']>>;
  body: z.output<NonNullable<R['body']>>;
  auth: AuthContext;
  now: Date;
  event: APIGatewayProxyEventV2;
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
type Fn<R extends RouteDef> = (input: HandlerInput<R>) => Promise<Data<R> | Hinted<Data<R>>>;

const ProfileIdHeader = Uuid;

/**
 * Builds the Lambda handler for one route of the route table: header normalisation, size limit,
 * authentication, JSON body, zod validation, acting profile, then `fn`, inside the one error
 * envelope. The route's definition is the only place its auth, scope and schemas are stated.
 */
type ApiEvent = APIGatewayProxyEventV2 & { auth: AuthContext; now: Date };
type Middleware = MiddlewareObj<ApiEvent, APIGatewayProxyStructuredResultV2>;

/** What API Gateway invokes: the raw v2 event in, a structured result out. */
export type HttpLambda = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export function httpHandler<R extends RouteDef>(route: R, fn: Fn<R>): HttpLambda {
  const core = async (event: ApiEvent): Promise<APIGatewayProxyStructuredResultV2> => {
    const params = parseInput('path', route.params ?? z.object({}), event.pathParameters ?? {});
    const query = parseInput('query', route.query ?? z.object({}), event.queryStringParameters ?? {});
    const body = route.body ? parseInput('body', route.body, event.body) : undefined;
    const input = { params, query, body, auth: event.auth, now: event.now, event };
    const result = await fn(input as unknown as HandlerInput<R>);
    if (route.raw) return rawJsonResponse(route.status, result);
    return result instanceof Hinted ? successResponse(route.status, result.data, result.hint) : successResponse(route.status, result);
  };

  const authenticate: Middleware = {
    before: async ({ event }) => {
      event.now = new Date();
      const principal = await resolvePrincipal(event.headers?.authorization, event.now);
      authorizeRoute(principal, route.auth, route.scope);
      event.auth = { principal, actingProfile: undefined };
    },
  };

  const stack = middy<ApiEvent, APIGatewayProxyStructuredResultV2, Error, Context>(core);
  stack.use(errorEnvelope());
  stack.use(httpHeaderNormalizer());
  stack.use(bodyLimit());
  stack.use(authenticate);
  if (route.body) stack.use(httpJsonBodyParser());

  if (route.actingProfile) {
    const { required, permission } = route.actingProfile;
    const actingProfile: Middleware = {
      before: async ({ event }) => {
        const header = event.headers?.['x-profile-id'];
        if (header === undefined || header === '') {
          if (required) {
            throw new ApiError('invalid_request', {
              message: 'The X-Profile-Id header is required.',
              hint: 'Send "X-Profile-Id: <profile_id>" naming the profile to act as (one attached to the API key).',
            });
          }
          return;
        }
        const profileId = parseInput('header', ProfileIdHeader, header);
        // A public read with X-Profile-Id but no credential is simply anonymous.
        if (!event.auth.principal) return;
        event.auth.actingProfile = await resolveActingProfile(event.auth.principal, profileId, permission);
      },
    };
    stack.use(actingProfile);
  }

  // The middlewares add `auth` and `now` to the event, so the handler accepts the plain event.
  return stack as unknown as HttpLambda;
}
