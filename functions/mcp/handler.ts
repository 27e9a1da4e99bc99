/**
 * The MCP endpoint's Lambda (`POST /mcp`, and 405 for `GET`/`DELETE`): each tool call runs its
 * route's own handler in-process, from the handlers bundled with this function.
 */
import { actableProfiles } from '../../shared/auth/actable-profiles.js';
import { mcpEndpoint } from '../../shared/mcp/endpoint.js';
import { toolHandlers } from './tool-handlers.js';

/** By handler module, which names one route of the table (test/unit/route-binding.test.ts). */
const byModule = new Map(toolHandlers.map((lambda) => [lambda.route.handler, lambda]));

export const handler = mcpEndpoint({
  invoke: (tool, event, context) => {
    const lambda = byModule.get(tool.route.handler);
    if (!lambda) throw new Error(`no handler bundled for the tool ${tool.name}`);
    return lambda(event, context);
  },
  actableProfiles,
});
