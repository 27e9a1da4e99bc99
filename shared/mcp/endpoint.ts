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
import { serveMcp, type McpRequestScope } from './server.js';

export type McpPorts = Pick<McpRequestScope, 'invoke' | 'actableProfiles'>;

const unauthorized = () =>
  new AppError('unauthorized', {
    hint: 'Configure the MCP client with the header "Authorization: Bearer <API key>" (sk_…) or a session token.',
  });

async function principalOf(event: APIGatewayProxyEventV2): Promise<Principal | AppError> {
  try {
    return (await resolvePrincipal(event.headers.authorization, new Date())) ?? unauthorized();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** A call needs every tool registered (the route answers a scope the key lacks); anything else only the listed ones. */
function isToolCall(body: string | undefined): boolean {
  try {
    const message = JSON.parse(body ?? '') as unknown;
    const methods = (Array.isArray(message) ? message : [message]).map((m) => (m as { method?: unknown })?.method);
    return methods.includes('tools/call');
  } catch {
    return false;
  }
}

function webRequest(event: APIGatewayProxyEventV2, body: string | undefined): Request {
  const host = event.headers.host ?? event.requestContext.domainName;
  return new Request(`https://${host}${event.rawPath}`, { method: 'POST', headers: event.headers, body });
}

export function mcpEndpoint(ports: McpPorts) {
  return async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    if (event.requestContext.http.method !== 'POST') {
      // Not 404: MCP clients retry a 404 as an older transport.
      return errorResponse(
        new ApiError('method_not_allowed', {
          hint: 'The MCP endpoint is stateless: send JSON-RPC messages with POST; there is no stream to open or session to end.',
          headers: { allow: 'POST' },
        }),
      );
    }
    const principal = await principalOf(event);
    if (principal instanceof AppError) return errorResponse(principal);

    const body =
      event.body !== undefined && event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body;
    const response = await serveMcp(webRequest(event, body), {
      ...ports,
      event,
      context,
      principal,
      allTools: isToolCall(body),
    });
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  };
}
