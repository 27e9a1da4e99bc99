/**
 * `POST /mcp` as a Lambda handler (an API Gateway v2 event in, a structured result out): 405 for
 * other methods, 401 without a valid credential (both in the service's envelope), then the MCP
 * request as a web-standard Request for the SDK, and its answer read whole (API Gateway HTTP APIs
 * do not stream).
 */
import { REQUEST_ID_HEADER, requestIdOf } from '../http/middleware/request-id.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { resolvePrincipal } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import { ApiError } from '../http/contract/errors.js';
import { errorResponse } from '../http/envelope.js';
import { publicBaseUrl, resourceMetadataUrl } from '../http/public-url.js';
import { isOAuthAccessToken } from '../domain/oauth.js';
import { logger } from '../logger.js';
import { selectionOf, type ToolSelection } from './selection.js';
import { serveMcp, type McpRequestScope } from './server.js';

export type McpPorts = Pick<McpRequestScope, 'invoke' | 'actableProfiles'>;

const unauthorized = () =>
  new AppError('unauthorized', {
    hint: 'Add this server to the MCP client by its URL and sign in (OAuth), or configure the header "Authorization: Bearer <API key>" (sk_…).',
  });

/**
 * A 401 of the MCP endpoint: the envelope, with the challenge naming the protected resource's
 * metadata (RFC 9728 §5.1), where an MCP client starts its OAuth sign-in.
 */
function challenged(error: AppError, event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 {
  const response = errorResponse(error);
  const metadata = resourceMetadataUrl(publicBaseUrl(event), 'mcp');
  return {
    ...response,
    headers: { ...response.headers, 'www-authenticate': `Bearer resource_metadata="${metadata}"` },
  };
}

async function principalOf(authorization: string): Promise<Principal | AppError> {
  try {
    return (await resolvePrincipal(authorization, new Date(), undefined, 'mcp')) ?? unauthorized();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/**
 * Which tools the request's server registers: for one tool call, that tool (listed or not: the
 * route answers a scope the key lacks); otherwise the ones the credential is shown. The SDK
 * parses the body again; this only reads which method and tool it names.
 */
function toolsNeeded(body: string | undefined): McpRequestScope['tools'] {
  let message: unknown;
  try {
    message = JSON.parse(body ?? '');
  } catch {
    return 'listed';
  }
  const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
  if (method === 'tools/call' && typeof params?.name === 'string') return { called: params.name };
  // A batch (2025-11-25) with calls in it: every tool.
  if (Array.isArray(message) && message.some((m) => (m as { method?: unknown })?.method === 'tools/call')) return 'all';
  return 'listed';
}

/** The request's tool sets and read-only mode, or the AppError that refuses them (400). */
function selectionOrError(event: APIGatewayProxyEventV2): ToolSelection | AppError {
  try {
    return selectionOf(event.queryStringParameters, event.headers);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

const bearerOf = (authorization: string) => authorization.trim().replace(/^Bearer\s+/i, '');

/** The route's hint of its 401, carried into the endpoint's own. */
function unauthorizedHint(body: string | undefined): string | undefined {
  try {
    return (JSON.parse(body ?? '') as { agent?: { hint?: string } }).agent?.hint;
  } catch {
    return undefined;
  }
}

function webRequest(event: APIGatewayProxyEventV2, body: string | undefined): Request {
  const host = event.headers.host ?? event.requestContext.domainName;
  return new Request(`https://${host}${event.rawPath}`, { method: 'POST', headers: event.headers, body });
}

export function mcpEndpoint(ports: McpPorts) {
  const serve = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    if (event.requestContext.http.method !== 'POST') {
      // Not 404: MCP clients retry a 404 as an older transport.
      return errorResponse(
        new ApiError('method_not_allowed', {
          hint: 'The MCP endpoint is stateless: send JSON-RPC messages with POST; there is no stream to open or session to end.',
          headers: { allow: 'POST' },
        }),
      );
    }
    const authorization = event.headers.authorization;
    if (!authorization) return challenged(unauthorized(), event);
    const selection = selectionOrError(event);
    if (selection instanceof AppError) return errorResponse(selection);
    const body =
      event.body !== undefined && event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body;
    const tools = toolsNeeded(body);
    // A single call is authenticated by its route, in the same read as the route's own data (a
    // key revoked since the client connected gets the route's unauthorized as a tool error);
    // everything else here, so that connecting with a bad credential is a 401.
    let principal: Principal | undefined;
    if (tools === 'listed' || tools === 'all') {
      const resolved = await principalOf(authorization);
      if (resolved instanceof AppError)
        return resolved.code === 'unauthorized' ? challenged(resolved, event) : errorResponse(resolved);
      principal = resolved;
    }
    // An OAuth access token refused by the called tool's route (expired, revoked) answers the
    // whole request 401, as MCP clients refresh or sign in again only on a 401.
    let refused: AppError | undefined;
    const invoke: McpPorts['invoke'] = async (tool, toolEvent, toolContext) => {
      const result = await ports.invoke(tool, toolEvent, toolContext);
      if (result.statusCode === 401 && isOAuthAccessToken(bearerOf(authorization)))
        refused = new AppError('unauthorized', { hint: unauthorizedHint(result.body) });
      return result;
    };
    const response = await serveMcp(webRequest(event, body), {
      ...ports,
      invoke,
      event,
      context,
      principal,
      tools,
      selection,
    });
    // Read whole first: an event-stream answer runs the tool while its body is read.
    const text = await response.text();
    if (refused) return challenged(refused, event);
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: text };
  };
  const answer = async (
    event: APIGatewayProxyEventV2,
    context: Context,
  ): Promise<APIGatewayProxyStructuredResultV2> => {
    try {
      return await serve(event, context);
    } catch (error) {
      // As every route answers what it did not expect: the envelope, no internal detail.
      logger.error('unhandled MCP endpoint error', {
        error: error as Error,
        requestId: event.requestContext.requestId,
      });
      return errorResponse(new ApiError('internal_error'));
    }
  };
  // As every route's: the request's id on whatever it answers.
  return async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const response = await answer(event, context);
    return { ...response, headers: { ...response.headers, [REQUEST_ID_HEADER]: requestIdOf(event, context) } };
  };
}
