/** The official MCP clients, connected to a server's /mcp with a credential (and optionally X-Profile-Id). */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { inject } from 'vitest';

export interface McpConnection {
  /** The protocol revision the client and the server agreed on. */
  version: string | undefined;
  /** What the server told the model at initialize. */
  instructions: string | undefined;
  listTools(): Promise<{ tools: { name: string; [key: string]: unknown }[] }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface ToolResult {
  isError?: boolean;
  structuredContent?: any;
  content: { type: string; text?: string }[];
}

export type McpClientKind = 'sdk 1.x (2025-11-25)' | 'client 2.x (2026-07-28)';
export const CLIENT_KINDS: McpClientKind[] = ['sdk 1.x (2025-11-25)', 'client 2.x (2026-07-28)'];

export interface ConnectOptions {
  key?: string;
  profileId?: string;
  baseUrl?: string;
  /** The endpoint's query, e.g. `toolsets=all` or `toolsets=posts&readonly=true`. */
  query?: string;
  /** More headers, e.g. `X-MCP-Toolsets`. */
  headers?: Record<string, string>;
}

export async function connectMcp(kind: McpClientKind, options: ConnectOptions = {}): Promise<McpConnection> {
  const url = new URL(`/mcp${options.query ? `?${options.query}` : ''}`, options.baseUrl ?? inject('baseUrl'));
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  if (options.profileId) headers['X-Profile-Id'] = options.profileId;
  const info = { name: 'mcp-e2e', version: '1.0.0' };
  if (kind === 'sdk 1.x (2025-11-25)') {
    const transport = new TransportV1(url, { requestInit: { headers } });
    const client = new ClientV1(info);
    await client.connect(transport);
    return {
      version: transport.protocolVersion,
      instructions: client.getInstructions(),
      listTools: () => client.listTools(),
      callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
      close: () => client.close(),
    };
  }
  const client = new ClientV2(info, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new TransportV2(url, { requestInit: { headers } }));
  return {
    version: client.getNegotiatedProtocolVersion(),
    instructions: client.getInstructions(),
    listTools: () => client.listTools(),
    callTool: async (name, args = {}) => await client.callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}

/** The JSON of an error result's one text item. */
export function toolError(result: ToolResult): Record<string, any> {
  if (!result.isError) throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  if (result.structuredContent !== undefined) throw new Error('an error result carries no structuredContent');
  return JSON.parse(result.content[0]!.text!) as Record<string, any>;
}

/** The data of a success result, checked against its text item. */
export function toolData(result: ToolResult): any {
  if (result.isError) throw new Error(`expected success, got ${result.content[0]?.text}`);
  if (JSON.stringify(result.structuredContent) !== result.content[0]?.text)
    throw new Error('the text item is not the structuredContent JSON');
  return result.structuredContent;
}
