/** The audit stamp of a request (domain/audit.ts), from what the middlewares established. */
import type { AuthContext } from '../auth/principal.js';
import { auditActorOf, type PendingStamp } from '../domain/audit.js';
import { ipPrefix } from '../domain/ip-prefix.js';
import type { RouteDef } from './contract/route.js';
import type { ApiEvent } from './middleware/api-event.js';
import { requestIdFor } from './middleware/request-id.js';

/**
 * The stamp a write route's writes carry; undefined for reads and for calls without a credential
 * (nobody's workspace). The workspace is the API key's, else the acting profile's, else the one
 * the path names; a session write with none of them takes the written item's (store/audit-stamp.ts).
 */
export function pendingStamp(route: RouteDef, event: ApiEvent, auth: AuthContext, now: Date): PendingStamp | undefined {
  const { principal, actingProfile } = auth;
  if (route.method === 'GET' || !principal) return undefined;
  const workspaceId =
    principal.kind === 'api_key'
      ? principal.workspaceId
      : (actingProfile?.workspace_id ?? event.pathParameters?.workspace_id);
  const ip = event.requestContext?.http?.sourceIp;
  return {
    // A tool call of the MCP endpoint is an entry of its own within the MCP request the caller sees.
    ...(event.partOfRequest
      ? { entry_id: requestIdFor(event), request_id: event.partOfRequest }
      : { request_id: requestIdFor(event) }),
    at: now.toISOString(),
    workspace_id: workspaceId,
    actor: auditActorOf(principal),
    acting_profile_id: actingProfile?.id ?? null,
    route: route.handler,
    ip_prefix: ip ? ipPrefix(ip) : null,
  };
}
