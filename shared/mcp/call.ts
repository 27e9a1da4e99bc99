/**
 * A tool call as the route's own request, and the route's answer as the tool's result. The event
 * is what API Gateway would have sent for the same operation, so the route's handler runs its
 * whole middleware stack (credential, scope, acting profile, rate limit, idempotency) unchanged.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiEvent } from '../http/middleware/api-event.js';
import { requestIdOf } from '../http/middleware/request-id.js';
import type { Tool } from './tools.js';

export type ToolArguments = Record<string, unknown>;

/** A query or path value as the route would read it from a URL. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

const pick = (args: ToolArguments, names: readonly string[]) =>
  Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));

/**
 * The route's event for one call: path parameters into the path, query fields into the query,
 * body fields into a JSON body; the MCP request's Authorization (and X-Profile-Id, unless the
 * call names its acting profile); Idempotency-Key from idempotency_key. The source IP and the request's
 * other context stay the MCP request's.
 */
export function routeEvent(mcpEvent: APIGatewayProxyEventV2, tool: Tool, args: ToolArguments): ApiEvent {
  const { route, fields } = tool;
  const pathParameters = Object.fromEntries(
    Object.entries(pick(args, fields.path)).map(([name, value]) => [name, asText(value)]),
  );
  const rawPath = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParameters[name] ?? ''));
  const query = Object.fromEntries(
    Object.entries(pick(args, fields.query)).map(([name, value]) => [name, asText(value)]),
  );
  const headers: Record<string, string> = {};
  const from = mcpEvent.headers;
  for (const name of ['authorization', 'x-profile-id', 'user-agent', 'host'] as const)
    if (from[name] !== undefined) headers[name] = from[name];
  const acting = tool.actingArgument && args[tool.actingArgument];
  if (typeof acting === 'string') headers['x-profile-id'] = acting;
  if (typeof args.idempotency_key === 'string') headers['idempotency-key'] = args.idempotency_key;
  const body = route.body ? JSON.stringify(pick(args, fields.body)) : undefined;
  if (body !== undefined) headers['content-type'] = 'application/json';

  const routeKey = `${route.method} ${route.path}`;
  const now = new Date();
  const event: ApiEvent = {
    // An OAuth token sent to the MCP endpoint was issued for it: the route accepts it as such.
    audience: 'mcp',
    // API Gateway's id of the MCP request, as the endpoint answers it in X-Request-Id.
    partOfRequest: requestIdOf(mcpEvent),
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: new URLSearchParams(query).toString(),
    headers,
    requestContext: {
      ...mcpEvent.requestContext,
      http: { ...mcpEvent.requestContext.http, method: route.method, path: rawPath },
      // The call's own: its write's audit entry is named by it.
      requestId: randomUUID(),
      routeKey,
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
  if (Object.keys(query).length > 0) event.queryStringParameters = query;
  if (Object.keys(pathParameters).length > 0) event.pathParameters = pathParameters;
  if (body !== undefined) event.body = body;
  return event;
}

/** What an error result says, as the JSON of its one text item. */
export interface ToolError {
  error_code: string;
  error_message: string;
  hint?: string;
  retry_after_seconds?: number;
  [extra: string]: unknown;
}

export function errorResult(error: ToolError): CallToolResult {
  // No structuredContent: the 1.x client checks it against the outputSchema even on an error, and throws.
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }] };
}

interface Envelope {
  ok: boolean;
  data: unknown;
  agent?: { hint?: string };
  error_code?: string;
  error_message?: string;
}

/** What a route (or a composite tool) answered: its data, or its error as a tool error. */
export type Outcome<Data> = { ok: true; data: Data } | { ok: false; error: ToolError };

/**
 * The route's words for a field (`body.body`, `path.post_id`, `header.x-profile-id`) as the
 * tool's argument names (`body`, `post_id`, `profile_id`): a tool's arguments are one flat object,
 * so a model reading `body.body` would look for a field that its input schema does not have.
 */
export function inArgumentNames(tool: Tool, text: string): string {
  return text.replace(/\b(path|query|body|header)\.([\w-]+)/g, (whole, part: string, name: string) => {
    if (part === 'header') return name === 'x-profile-id' && tool.actingArgument ? tool.actingArgument : whole;
    return tool.fields[part as keyof Tool['fields']].includes(name) ? name : whole;
  });
}

/** The route's answer as an outcome: its `data`, or its error with the hint (and when to retry). */
export function routeOutcome(result: APIGatewayProxyStructuredResultV2, tool: Tool): Outcome<unknown> {
  const envelope = JSON.parse(result.body ?? 'null') as Envelope | null;
  if (envelope?.ok) return { ok: true, data: envelope.data ?? {} };
  const error: ToolError = {
    error_code: envelope?.error_code ?? 'internal_error',
    error_message: inArgumentNames(tool, envelope?.error_message ?? 'The operation failed.'),
  };
  if (envelope?.agent?.hint) error.hint = inArgumentNames(tool, envelope.agent.hint);
  const retryAfter = Number(result.headers?.['retry-after']);
  if (error.error_code === 'rate_limited' && Number.isFinite(retryAfter)) error.retry_after_seconds = retryAfter;
  return { ok: false, error };
}

/**
 * An outcome as a tool result. Data goes out twice, as the MCP specification asks of a tool with
 * an output schema: as `structuredContent`, and serialized as the one text item (what clients
 * that read only `content`, ChatGPT's connectors among them, parse).
 */
export function outcomeResult(outcome: Outcome<unknown>): CallToolResult {
  if (!outcome.ok) return errorResult(outcome.error);
  const data = outcome.data as Record<string, unknown>;
  return { structuredContent: data, content: [{ type: 'text', text: JSON.stringify(data) }] };
}
