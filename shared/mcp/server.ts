/**
 * The MCP server of one HTTP request (stateless: a fresh McpServer each time, no session): the
 * tools the caller may see, each of which runs its route, or (a composite tool) several routes. Built on the official SDK's
 * web-standard handler, which speaks both protocol revisions (2026-07-28 and 2025-11-25).
 */
import {
  createMcpHandler,
  McpServer,
  type AuthInfo,
  type CallToolResult,
  type McpRequestContext,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ActableProfile } from '../auth/actable-profiles.js';
import type { Principal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import { logger } from '../logger.js';
import { publicBaseUrl } from '../http/public-url.js';
import { errorResult, outcomeResult, routeEvent, routeOutcome, type Outcome, type ToolArguments } from './call.js';
import { compositeListedFor, type CompositeTool } from './composite.js';
import { compositeTools } from './composite-tools.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import type { JsonSchema } from './json-schema.js';
import { selects, type ToolSelection } from './selection.js';
import { listedFor, tools, type Tool } from './tools.js';

/** Runs a route's own Lambda handler on an event (in-process). */
export type RouteInvoker = (
  tool: Tool,
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** What one HTTP request's server needs to know about the request. */
export interface McpRequestScope {
  /** The MCP request's own event: credential, X-Profile-Id, source IP. */
  event: APIGatewayProxyEventV2;
  /** The MCP request's Lambda context, which the route's handler runs in. */
  context: Context;
  /** The caller, resolved up front for everything but a single tool call (its route resolves it). */
  principal: Principal | undefined;
  /**
   * The tools this request's server registers: those the credential is shown (`listed`), or the
   * one a call names, or all (a batch with calls): a call to a tool outside the key's scopes runs
   * the route, which answers insufficient_scope with its hint.
   */
  tools: 'listed' | 'all' | { called: string };
  /** The tool sets and read-only mode the request chose: a tool outside them is neither listed nor callable. */
  selection: ToolSelection;
  invoke: RouteInvoker;
  /** The profiles the credential of this Authorization header may act as (throws AppError unauthorized). */
  actableProfiles: (authorization: string | undefined) => Promise<ActableProfile[]>;
}

/**
 * A JSON Schema the SDK advertises as it is, read when the SDK asks for it (a tool's output schema
 * is built on first use: tools.ts). Its validation passes everything through: the route validates
 * its input with its own schemas and answers with the service's error envelope.
 */
function advertised(schema: () => JsonSchema): StandardSchemaWithJSON<ToolArguments, ToolArguments> {
  return {
    '~standard': {
      version: 1,
      vendor: 'social-network-api',
      jsonSchema: { input: schema, output: schema },
      validate: (value: unknown) => ({ value: value as ToolArguments }),
    },
  };
}

/** A tool's registration (route or composite), built once per process. */
const configOf = (tool: Tool | CompositeTool) => ({
  title: tool.title,
  description: tool.description,
  annotations: tool.annotations,
  inputSchema: advertised(() => tool.inputSchema),
  outputSchema: advertised(() => tool.outputSchema),
});
const routeConfigs = new Map(tools.map((tool) => [tool, configOf(tool)]));
const compositeConfigs = new Map(compositeTools.map((tool) => [tool, configOf(tool)]));
const toolNamed = new Map(tools.map((tool) => [tool.name, tool]));
const compositeNamed = new Map(compositeTools.map((tool) => [tool.name, tool]));

/** A call of a route tool, by the client or by a composite tool: the route's handler on the route's event. */
async function callRoute(scope: McpRequestScope, tool: Tool, args: ToolArguments): Promise<Outcome<unknown>> {
  const named = tool.actingArgument !== undefined && typeof args[tool.actingArgument] === 'string';
  if (tool.route.actingProfile?.required && !named && !scope.event.headers['x-profile-id']) {
    return {
      ok: false,
      error: {
        error_code: 'invalid_request',
        error_message: `${tool.name} acts as a profile: pass ${tool.actingArgument}, or send the X-Profile-Id header.`,
        hint: `Pass ${tool.actingArgument} as one of the profiles listed here (the ones this credential may act as).`,
        profiles: await scope.actableProfiles(scope.event.headers.authorization),
      },
    };
  }
  return routeOutcome(await scope.invoke(tool, routeEvent(scope.event, tool, args), scope.context), tool);
}

const runComposite = (scope: McpRequestScope, composite: CompositeTool, args: ToolArguments) =>
  composite.run(args, (tool, toolArgs) => callRoute(scope, tool, toolArgs), publicBaseUrl(scope.event));

/** Registers one tool whose calls `run` answers; what it throws becomes a tool error. */
function register(
  server: McpServer,
  tool: Tool | CompositeTool,
  config: ReturnType<typeof configOf>,
  run: (args: ToolArguments) => Promise<Outcome<unknown>>,
): void {
  server.registerTool(tool.name, config, async (args): Promise<CallToolResult> => {
    try {
      return outcomeResult(await run(args));
    } catch (error) {
      if (error instanceof AppError)
        return errorResult({ error_code: error.code, error_message: error.message, hint: error.hint });
      // What a tool throws would reach the client as its message; nothing internal leaks.
      logger.error('MCP tool call failed', { tool: tool.name, error: error as Error });
      return errorResult({ error_code: 'internal_error', error_message: 'The operation failed unexpectedly.' });
    }
  });
}

const SCOPE_KEY = 'request';
const scopeOf = (authInfo: AuthInfo | undefined): McpRequestScope => {
  const scope = authInfo?.extra?.[SCOPE_KEY] as McpRequestScope | undefined;
  if (!scope) throw new Error('the MCP request reached the server without its request scope');
  return scope;
};

function serverFor(context: McpRequestContext): McpServer {
  const scope = scopeOf(context.authInfo);
  const server = new McpServer(
    { name: 'social-network-api', version: '1.0.0' },
    // Stateless: the list never changes during a connection, there is no connection to notify.
    { capabilities: { tools: { listChanged: false } }, instructions: SERVER_INSTRUCTIONS },
  );
  const wanted = scope.tools;
  const candidates =
    wanted === 'all'
      ? tools
      : wanted === 'listed'
        ? listedFor(scope.principal!)
        : [toolNamed.get(wanted.called)].filter((tool) => tool !== undefined);
  const composites =
    wanted === 'all'
      ? compositeTools
      : wanted === 'listed'
        ? compositeTools.filter((composite) => compositeListedFor(scope.principal!, composite))
        : [compositeNamed.get(wanted.called)].filter((composite) => composite !== undefined);
  // A tool outside the selection is not registered: a call to it is answered as an unknown tool.
  for (const tool of candidates.filter((candidate) => selects(scope.selection, candidate)))
    register(server, tool, routeConfigs.get(tool)!, (args) => callRoute(scope, tool, args));
  for (const composite of composites.filter((candidate) => selects(scope.selection, candidate)))
    register(server, composite, compositeConfigs.get(composite)!, (args) => runComposite(scope, composite, args));
  return server;
}

/**
 * The handler for every MCP request of the process. 'auto' answers JSON (we never stream
 * progress); a 2025-11-25 request is answered as one SSE message, and the stream ends.
 */
const mcp = createMcpHandler(serverFor, { responseMode: 'auto', keepAliveMs: 0 });

/** Serves one authenticated MCP request. */
export function serveMcp(request: Request, scope: McpRequestScope): Promise<Response> {
  const authInfo: AuthInfo = { token: '', clientId: '', scopes: [], extra: { [SCOPE_KEY]: scope } };
  return mcp.fetch(request, { authInfo });
}
