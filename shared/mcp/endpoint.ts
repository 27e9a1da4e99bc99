/**
 * `POST /mcp` as a Lambda handler (an API Gateway v2 event in, a structured result out): 405 for
 * other methods, 401 without a valid credential (both in the service's envelope), then the MCP
 * request as a web-standard Request for the SDK, and its answer read whole (API Gateway HTTP APIs
 * do not stream).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { resolvePrincipal } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import { ApiError } from '../http/contract/errors.js';
import { errorResponse } from '../http/envelope.js';
import { logger } from '../logger.js';
import { selectionOf, type ToolSelection } from './selection.js';
import { serveMcp, type McpRequestScope } from './server.js';

export type McpPorts = Pick<McpRequestScope, 'invoke' | 'actableProfiles'>;

const unauthorized = () =>
  new AppError('unauthorized', {
    hint: 'Configure the MCP client with the header "Authorization: Bearer <API key>" (sk_…) or a session token.',
  });

async function principalOf(authorization: string): Promise<Principal | AppError> {
  try {
    return (await resolvePrincipal(authorization, new Date())) ?? unauthorized();
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
    if (!authorization) return errorResponse(unauthorized());
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
      if (resolved instanceof AppError) return errorResponse(resolved);
      principal = resolved;
    }
    const response = await serveMcp(webRequest(event, body), { ...ports, event, context, principal, tools, selection });
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  };
  return async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
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
}
