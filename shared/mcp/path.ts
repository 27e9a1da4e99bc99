/** Where the MCP endpoint answers, beside the /v1 routes (the local server and the CDK stack both route it). */
export const MCP_PATH = '/mcp';
