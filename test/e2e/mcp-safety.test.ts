/**
 * The safety tool set through the official MCP clients: block, unblock, mute, unmute, the lists of
 * blocks and mutes, and reporting, each running its route as the connection's profile.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { CLIENT_KINDS, connectMcp, toolData, toolError, type McpConnection } from '../support/mcp.js';
import { actor, ok, post } from '../support/social.js';

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

const SAFETY_TOOLS = [
  'block_profile',
  'list_blocks',
  'list_mutes',
  'mute_profile',
  'report_content',
  'unblock_profile',
  'unmute_profile',
];

describe.each(CLIENT_KINDS)('the safety tools with %s', (kind) => {
  it('are the safety set, annotated: the lists read-only, blocking and muting idempotent', async () => {
    const me = await actor();
    const mcp = await connectMcp(kind, { key: me.key, profileId: me.profile.id, query: 'toolsets=safety' });
    open.push(mcp);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(SAFETY_TOOLS);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['list_blocks', 'list_mutes'])
      expect(byName.get(name)?.annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    for (const name of ['block_profile', 'mute_profile'])
      expect(byName.get(name)?.annotations, name).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(byName.get('unblock_profile')?.inputSchema).toMatchObject({ required: ['blocked_profile_id'] });
    expect(byName.get('unmute_profile')?.inputSchema).toMatchObject({ required: ['muted_profile_id'] });
  });

  it('block, list, unblock; mute, list, unmute: as the HTTP routes answer, for the acting profile', async () => {
    const [me, other, loud] = await Promise.all([actor(), actor(), actor()]);
    const mcp = await connectMcp(kind, { key: me.key, profileId: me.profile.id, query: 'toolsets=safety' });
    open.push(mcp);

    expect(toolData(await mcp.callTool('block_profile', { blocked_profile_id: other.profile.id }))).toEqual({
      blocked: true,
    });
    const blocks = toolData(await mcp.callTool('list_blocks', {}));
    expect(blocks.items.map((i: any) => i.profile.id)).toEqual([other.profile.id]);
    expect(blocks.next_cursor).toBeNull();
    // The block holds on the API from the next request: the other's post reads 404 as me.
    const { post: theirs } = await post(other, { body: 'blocked soon' });
    const asMe = { token: me.key, profileId: me.profile.id };
    expect((await call('GET', `/v1/posts/${theirs.id}`, asMe)).status).toBe(404);

    expect(toolData(await mcp.callTool('mute_profile', { muted_profile_id: loud.profile.id }))).toEqual({
      muted: true,
    });
    const mutes = toolData(await mcp.callTool('list_mutes', { limit: 10 }));
    expect(mutes.items.map((i: any) => i.profile.id)).toEqual([loud.profile.id]);
    // The lists are the caller's own: the API's list agrees.
    expect(ok(await call('GET', '/v1/profile-mutes', asMe)).items.map((i: any) => i.profile.id)).toEqual([
      loud.profile.id,
    ]);

    expect(toolData(await mcp.callTool('unblock_profile', { blocked_profile_id: other.profile.id }))).toEqual({
      unblocked: true,
    });
    expect(toolData(await mcp.callTool('unblock_profile', { blocked_profile_id: other.profile.id }))).toEqual({
      unblocked: false,
    });
    expect(ok(await call('GET', `/v1/posts/${theirs.id}`, asMe)).post.id).toBe(theirs.id);
    expect(toolData(await mcp.callTool('unmute_profile', { muted_profile_id: loud.profile.id }))).toEqual({
      unmuted: true,
    });
    expect(toolData(await mcp.callTool('list_blocks', {})).items).toEqual([]);
    expect(toolData(await mcp.callTool('list_mutes', {})).items).toEqual([]);

    // The routes' refusals come back as tool errors.
    const self = toolError(await mcp.callTool('block_profile', { blocked_profile_id: me.profile.id }));
    expect(self.error_code).toBe('invalid_request');
  });

  it('needs the safety scopes: a key without them lists none of the tools and is refused', async () => {
    const [reader, other] = await Promise.all([actor(['posts:read']), actor()]);
    const mcp = await connectMcp(kind, { key: reader.key, profileId: reader.profile.id, query: 'toolsets=all' });
    open.push(mcp);
    const names = (await mcp.listTools()).tools.map((tool) => tool.name);
    for (const name of SAFETY_TOOLS) expect(names).not.toContain(name);
    const refused = toolError(await mcp.callTool('mute_profile', { muted_profile_id: other.profile.id }));
    expect(refused).toMatchObject({ error_code: 'insufficient_scope', hint: expect.stringContaining('safety:write') });
  });
});
