import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { AuthContext } from '../../auth/principal.js';
import type { SafetySets, ViewerFilter } from '../../domain/safety.js';
import type { Audience } from '../../domain/oauth.js';
import type { ReadBatch } from '../../store/read-batch.js';

/** What API Gateway invokes: the raw v2 event in, a structured result out. */
export type HttpLambda = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The event with what the middlewares add as the request passes through them: the caller and the
 * request's clock (authenticate), the request's reads (prefetch), the stored first response when
 * the request repeats an Idempotency-Key. Each is absent until the middleware that sets it has run
 * (the rate limit counts before anyone is authenticated), so API Gateway's plain event is one too.
 */
export type ApiEvent = APIGatewayProxyEventV2 & {
  auth?: AuthContext;
  now?: Date;
  idempotentReplay?: APIGatewayProxyStructuredResultV2;
  /** The request's coalesced point reads (see middleware/prefetch.ts). */
  reads?: ReadBatch;
  /** The route's read-ahead, started before authentication. */
  prefetched?: Promise<unknown>;
  /** The claimed viewer's safety sets, read beside the credential (prefetch); trusted only for the acting profile. */
  safetyAhead?: { profileId: string; sets: Promise<SafetySets> };
  /** What the acting profile's blocks and mutes hide from it (acting-profile middleware); absent without one. */
  viewer?: ViewerFilter;
  /**
   * The protected resource the request was made to, for OAuth tokens' audience: `mcp` on the
   * events the MCP endpoint builds for its tool calls (in-process, never from a request's own
   * fields); the API otherwise.
   */
  audience?: Audience;
  /**
   * On the events the MCP endpoint builds for its tool calls (in-process, never from a request's
   * own fields): the MCP request's id, which its caller got as X-Request-Id and finds in the audit
   * log. The event's own `requestId` is the call's, so each call's write is an entry of its own.
   */
  partOfRequest?: string;
  /** The path and query as the route's schemas parsed them, when the read-ahead parsed them first. */
  input?: { params: Record<string, unknown>; query: Record<string, unknown> };
};

export type ApiMiddleware = MiddlewareObj<ApiEvent, APIGatewayProxyStructuredResultV2>;
