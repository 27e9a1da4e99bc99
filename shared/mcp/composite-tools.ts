/** Every composite tool (composite.ts): the MCP server lists and runs them beside the route tools. */
import { fetchTool } from './chatgpt/fetch-tool.js';
import { searchTool } from './chatgpt/search-tool.js';
import type { CompositeTool } from './composite.js';
import { waitForEventsTool } from './live/wait-for-events.js';

export const compositeTools: readonly CompositeTool[] = [searchTool, fetchTool, waitForEventsTool];
