import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config.js';
import { MCP_PATH } from '../mcp/path.js';

/**
 * The service's base URL as its clients reach it, without a trailing slash: PUBLIC_BASE_URL when
 * set, else the request's origin. The host is the domain API Gateway matched the request on, not
 * the Host header a client wrote: links in mail (a password reset's) must not point where a caller
 * says. API Gateway sets `X-Forwarded-Proto` (https); the local server does not, and serves plain
 * http.
 */
export function publicBaseUrl(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const proto = event.headers['x-forwarded-proto']?.split(',')[0]?.trim() || 'http';
  const host = event.requestContext.domainName ?? event.headers.host;
  return `${proto}://${host}`;
}

/** Where each resource's RFC 9728 metadata is (the well-known path with the resource's path appended). */
export const resourceMetadataUrl = (base: string, audience: 'api' | 'mcp') =>
  `${base}/.well-known/oauth-protected-resource${audience === 'mcp' ? MCP_PATH : ''}`;
