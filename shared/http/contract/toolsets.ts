/**
 * The MCP tool sets (API.md "Agents sign in with OAuth 2.1"): every tool belongs to one, named in
 * its route's `mcp.toolset`. A client narrows `tools/list` and the callable tools to some of them
 * (`/mcp?toolsets=posts,feed`), or reaches every tool with `toolsets=all`.
 */
export const MCP_TOOLSETS = [
  'posts',
  'feed',
  'notifications',
  'search',
  'profiles',
  'follows',
  'messages',
  'access',
  'media',
  'safety',
  'edits',
] as const;

export type McpToolset = (typeof MCP_TOOLSETS)[number];

/**
 * The tool sets listed when a client selects none: what an agent on a social network does most
 * (read its feed, read and write posts, comments and threads), within the default listing's
 * budget of 12,000 bytes (docs/decisions.md "MCP tool sets"); the inbox is `toolsets=posts,feed,notifications`.
 */
export const DEFAULT_TOOLSETS: readonly McpToolset[] = ['posts', 'feed'];
