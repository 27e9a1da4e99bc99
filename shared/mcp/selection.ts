/**
 * Which tools one MCP request may list and call: its tool sets (`?toolsets=` or `X-MCP-Toolsets`)
 * and read-only mode (`?readonly=true` or `X-MCP-Readonly`). The query wins over the header for
 * each of the two, since a client configured by URL alone can set nothing else. Without a
 * selection: the default tool sets, read and write.
 */
import { DEFAULT_TOOLSETS, MCP_TOOLSETS, type McpToolset } from '../http/contract/toolsets.js';
import { AppError } from '../errors.js';
import type { Tool } from './tools.js';

export interface ToolSelection {
  toolsets: ReadonlySet<McpToolset> | 'all';
  readonly: boolean;
}

export const DEFAULT_SELECTION: ToolSelection = { toolsets: new Set(DEFAULT_TOOLSETS), readonly: false };

const isToolset = (name: string): name is McpToolset => (MCP_TOOLSETS as readonly string[]).includes(name);

const badSelection = (message: string, hint: string) => new AppError('invalid_request', { message, hint });

function toolsetsOf(value: string): ToolSelection['toolsets'] {
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.length === 0) return DEFAULT_SELECTION.toolsets;
  if (names.includes('all')) return 'all';
  const unknown = names.filter((name) => !isToolset(name));
  if (unknown.length > 0)
    throw badSelection(
      `Unknown tool set: ${unknown.join(', ')}.`,
      `toolsets (or the X-MCP-Toolsets header) is a comma-separated list of ${MCP_TOOLSETS.join(', ')}; or all. ` +
        `Without it: ${DEFAULT_TOOLSETS.join(', ')}.`,
    );
  return new Set(names as McpToolset[]);
}

function readonlyOf(value: string): boolean {
  const flag = value.trim().toLowerCase();
  if (flag === 'true') return true;
  if (flag === 'false' || flag === '') return false;
  throw badSelection(
    'readonly must be true or false.',
    'Send readonly=true (or X-MCP-Readonly: true) to list only the tools that change nothing.',
  );
}

/**
 * The request's selection (throws AppError invalid_request for an unknown tool set or a readonly
 * that is not true or false). Header names are lowercase, as API Gateway and the local server pass them.
 */
export function selectionOf(
  query: Readonly<Record<string, string | undefined>> | undefined,
  headers: Readonly<Record<string, string | undefined>>,
): ToolSelection {
  const toolsets = query?.toolsets ?? headers['x-mcp-toolsets'];
  const readonly = query?.readonly ?? headers['x-mcp-readonly'];
  return {
    toolsets: toolsets === undefined ? DEFAULT_SELECTION.toolsets : toolsetsOf(toolsets),
    readonly: readonly === undefined ? false : readonlyOf(readonly),
  };
}

/** Whether the selection lists the tool and lets it be called. */
export const selects = (selection: ToolSelection, tool: Pick<Tool, 'toolset' | 'annotations'>): boolean =>
  (selection.toolsets === 'all' || selection.toolsets.has(tool.toolset)) &&
  (!selection.readonly || tool.annotations.readOnlyHint);
