/**
 * The MCP endpoint's Lambda (`POST /mcp`, and 405 for `GET`/`DELETE`): each tool call runs its
 * route's own handler in-process, from the handlers bundled with this function, each loaded on
 * its first call (tool-handlers.ts).
 */
import { actableProfiles } from '../../shared/auth/actable-profiles.js';
import { mcpEndpoint } from '../../shared/mcp/endpoint.js';
import type { RouteLambda } from '../../shared/http/handler.js';
import type { Tool } from '../../shared/mcp/tools.js';
import { toolHandlers } from './tool-handlers.js';

/** The loaded handlers, by handler module (which names one route of the table: test/unit/route-binding.test.ts). */
const loaded = new Map<string, RouteLambda>();

async function load(tool: Tool): Promise<RouteLambda> {
  const module = tool.route.handler;
  const importer = toolHandlers[module];
  if (!importer) throw new Error(`no handler bundled for the tool ${tool.name}`);
  const { handler: lambda } = await importer();
  loaded.set(module, lambda);
  return lambda;
}

export const handler = mcpEndpoint({
  invoke: async (tool, event, context) => {
    const lambda = loaded.get(tool.route.handler) ?? (await load(tool));
    return lambda(event, context);
  },
  actableProfiles,
});
