/**
 * The MCP endpoint's Lambda (`POST /mcp`, and 405 for `GET`/`DELETE`): each tool call runs its
 * route's own handler in-process, from the handlers bundled with this function.
 */
import { actableProfiles } from '../../shared/auth/actable-profiles.js';
import { routes, type RouteName } from '../../shared/http/contract/route-table.js';
import { mcpEndpoint } from '../../shared/mcp/endpoint.js';
import { toolHandlers } from './tool-handlers.js';

const byRoute = new Map(toolHandlers.map((lambda) => [lambda.route, lambda]));

export const handler = mcpEndpoint({
  invoke: (tool, event, context) => {
    const lambda = byRoute.get(routes[tool.route.name as RouteName]);
    if (!lambda) throw new Error(`no handler bundled for the tool ${tool.name}`);
    return lambda(event, context);
  },
  actableProfiles,
});
