/**
 * Composite tools: MCP tools that are no one route of the route table but answer by calling
 * routes, each exactly as that route's own tool runs it (server.ts `callRoute`: the route's event
 * from the MCP request, its whole middleware stack: credential, scope, acting profile with its
 * blocks and mutes, rate limit). A composite is declared once: its zod input and output schemas
 * (the advertised JSON Schemas are derived from them), the routes it calls, and how it combines
 * their answers. It never reads the table itself.
 */
import type * as z from 'zod';
import type { Principal } from '../auth/principal.js';
import type { RouteName, routes } from '../http/contract/route-table.js';
import type { ToolAnnotations } from '../http/contract/route.js';
import type { McpToolset } from '../http/contract/toolsets.js';
import { callerWords, REQUIRED } from '../http/validation.js';
import type { Outcome, ToolArguments, ToolError } from './call.js';
import { flatObject, jsonSchemaOf, objectSchemaOf, type JsonSchema, type ObjectSchema } from './json-schema.js';
import { isListedFor, tools, USER_CONTENT_NOTE, type Tool } from './tools.js';

/** What a route answers, as its response schema types it. */
export type RouteData<N extends RouteName> = z.output<(typeof routes)[N]['response']>;

/** Calls one of the routes a composite declared, with the arguments its tool takes. */
export type RouteCaller<Allowed extends RouteName> = <N extends Allowed>(
  route: N,
  args: ToolArguments,
) => Promise<Outcome<RouteData<N>>>;

export interface CompositeContext<Allowed extends RouteName> {
  call: RouteCaller<Allowed>;
  /** The service's base URL as its clients reach it (shared/http/public-url.ts), for absolute URLs. */
  baseUrl: string;
}

export interface CompositeDefinition<I extends z.ZodObject, O extends z.ZodObject, R extends RouteName> {
  name: string;
  title: string;
  /** What it does; the user-content note every tool says is added. */
  description: string;
  toolset: McpToolset;
  annotations: Required<ToolAnnotations>;
  input: I;
  output: O;
  /** The routes it calls: each must be a tool of the route table, so the MCP function bundles its handler. */
  routes: readonly R[];
  run(args: z.output<I>, context: CompositeContext<R>): Promise<Outcome<z.output<O>>>;
}

/** Runs a route tool for a composite, as server.ts runs a call to that tool. */
export type RouteToolCaller = (tool: Tool, args: ToolArguments) => Promise<Outcome<unknown>>;

export interface CompositeTool {
  name: string;
  title: string;
  description: string;
  annotations: Required<ToolAnnotations>;
  inputSchema: ObjectSchema;
  outputSchema: JsonSchema;
  toolset: McpToolset;
  /** The route tools it calls. */
  uses: readonly Tool[];
  run(args: ToolArguments, callTool: RouteToolCaller, baseUrl: string): Promise<Outcome<unknown>>;
}

/** How deep a composite's output schema describes objects: its results are small and fully described. */
const OUTPUT_DEPTH = 3;

function routeTool(name: RouteName, composite: string): Tool {
  const tool = tools.find((candidate) => candidate.route.name === name);
  if (!tool) throw new Error(`${composite} calls ${name}, which is no MCP tool (its handler is not bundled)`);
  return tool;
}

function invalidArguments(name: string, error: z.ZodError): ToolError {
  return {
    error_code: 'invalid_request',
    error_message: error.issues
      .map((issue) => {
        const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
        return issue.message === REQUIRED ? `${where} ${REQUIRED}` : `${where}: ${issue.message}`;
      })
      .join('; '),
    hint: `Call ${name} with the arguments its input schema lists.`,
  };
}

export function defineCompositeTool<I extends z.ZodObject, O extends z.ZodObject, R extends RouteName>(
  definition: CompositeDefinition<I, O, R>,
): CompositeTool {
  const { name } = definition;
  const uses = new Map(definition.routes.map((route) => [route, routeTool(route, name)]));
  return {
    name,
    title: definition.title,
    description: `${definition.description} ${USER_CONTENT_NOTE}`,
    annotations: definition.annotations,
    inputSchema: flatObject([objectSchemaOf(definition.input, `${name} input`)]),
    outputSchema: jsonSchemaOf(definition.output, 'output', OUTPUT_DEPTH),
    toolset: definition.toolset,
    uses: [...uses.values()],
    async run(args, callTool, baseUrl) {
      const parsed = definition.input.safeParse(args, { error: callerWords });
      if (!parsed.success) return { ok: false, error: invalidArguments(name, parsed.error) };
      // The route's handler answered its own response schema, which is what RouteData names.
      const call = (<N extends R>(route: N, routeArgs: ToolArguments) =>
        callTool(uses.get(route)!, routeArgs) as Promise<Outcome<RouteData<N>>>) satisfies RouteCaller<R>;
      return definition.run(parsed.data, { call, baseUrl });
    },
  };
}

/** Listed to a caller that would be listed every route it calls. */
export const compositeListedFor = (principal: Principal, composite: CompositeTool): boolean =>
  composite.uses.every((tool) => isListedFor(principal, tool));
