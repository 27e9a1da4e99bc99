/**
 * MCP tool sets and read-only mode (API.md "Agents sign in with OAuth 2.1", last bullet): by query
 * or header they narrow tools/list and the callable tools; without a selection the default sets
 * are listed within 12,000 bytes; `toolsets=all` reaches every tool.
 */
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { routeList } from '../../shared/http/contract/route-table.js';
import { DEFAULT_TOOLSETS, MCP_TOOLSETS } from '../../shared/http/contract/toolsets.js';
import { compositeTools } from '../../shared/mcp/composite-tools.js';
import { CLIENT_KINDS, connectMcp, toolData, type ConnectOptions, type McpConnection } from '../support/mcp.js';
import { actor, type Actor } from '../support/social.js';

let alice: Actor;
beforeAll(async () => {
  alice = await actor();
});

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

/** Every tool by the tool set its definition names: the tool routes, then the composite tools. */
const toolDefinitions = [
  ...routeList.flatMap((route) =>
    route.mcp
      ? [
          {
            name: route.mcp.name ?? route.name.replace(/[A-Z]/g, (l) => `_${l.toLowerCase()}`),
            toolset: route.mcp.toolset,
          },
        ]
      : [],
  ),
  ...compositeTools.map(({ name, toolset }) => ({ name, toolset })),
];
const namesIn = (...toolsets: string[]) =>
  toolDefinitions
    .filter((tool) => toolsets.includes(tool.toolset))
    .map((tool) => tool.name)
    .sort();

/** A raw JSON-RPC request to /mcp (2025-11-25 style: the answer is one SSE message) and its JSON. */
async function rpc(query: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(new URL(`/mcp${query}`, inject('baseUrl')), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${alice.key}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  return { status: response.status, json, body: JSON.parse(json) };
}
const list = (query: string, headers: Record<string, string> = {}) =>
  rpc(query, headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
const listedNames = async (query: string, headers: Record<string, string> = {}) => {
  const { status, body } = await list(query, headers);
  expect(status).toBe(200);
  return (body.result.tools as { name: string }[]).map((tool) => tool.name).sort();
};

describe('MCP tool sets', () => {
  it('lists the default sets without a selection, within 12,000 bytes of JSON', async () => {
    const { status, json, body } = await list('');
    expect(status).toBe(200);
    const names = (body.result.tools as { name: string }[]).map((tool) => tool.name).sort();
    expect(names).toEqual(namesIn(...DEFAULT_TOOLSETS));
    expect(names).toEqual(expect.arrayContaining(['get_feed', 'get_post', 'create_post', 'get_thread']));
    expect(names).not.toContain('send_message');
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(12_000);
  });

  it('reaches every tool with toolsets=all, and exactly the named sets otherwise', async () => {
    const all = await listedNames('?toolsets=all');
    expect(all).toEqual(namesIn(...MCP_TOOLSETS));
    expect(all.length).toBe(toolDefinitions.length);
    expect(await listedNames('?toolsets=messages,follows')).toEqual(namesIn('messages', 'follows'));
    expect(await listedNames('?toolsets= Profiles ,access')).toEqual(namesIn('profiles', 'access'));
    // A set without tools yet lists none.
    expect(await listedNames('?toolsets=media')).toEqual(namesIn('media'));
  });

  it('lists only read-only tools in read-only mode', async () => {
    const readOnly = (await list('?toolsets=all&readonly=true')).body.result.tools as any[];
    expect(readOnly.length).toBeGreaterThan(5);
    for (const tool of readOnly) expect(tool.annotations.readOnlyHint, tool.name).toBe(true);
    expect(readOnly.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['get_post', 'get_thread', 'list_messages']),
    );
    const defaults = await listedNames('?readonly=true');
    expect(defaults).toContain('get_feed');
    expect(defaults).not.toContain('create_post');
    expect(await listedNames('?readonly=false')).toContain('create_post');
  });

  it('takes the selection from the X-MCP-Toolsets and X-MCP-Readonly headers, the query winning over them', async () => {
    expect(await listedNames('', { 'x-mcp-toolsets': 'messages', 'x-mcp-readonly': 'true' })).toEqual([
      'get_conversation_unread_count',
      'list_conversations',
      'list_messages',
    ]);
    expect(await listedNames('?toolsets=follows', { 'x-mcp-toolsets': 'messages' })).toEqual(namesIn('follows'));
    expect(await listedNames('?readonly=false', { 'x-mcp-toolsets': 'messages', 'x-mcp-readonly': 'true' })).toEqual(
      namesIn('messages'),
    );
  });

  it('refuses an unknown tool set or readonly value with 400 and a hint naming the valid ones', async () => {
    for (const [query, headers] of [
      ['?toolsets=posts,bogus', {}],
      ['', { 'x-mcp-toolsets': 'bogus' }],
    ] as const) {
      const { status, body } = await list(query, headers);
      expect(status).toBe(400);
      expect(body).toMatchObject({ ok: false, data: null, error_code: 'invalid_request' });
      expect(body.error_message).toContain('bogus');
      expect(body.agent.hint).toContain('posts, feed, notifications');
    }
    const readonly = await list('?readonly=yes');
    expect(readonly.status).toBe(400);
    expect(readonly.body.agent.hint).toContain('readonly=true');
  });

  it('answers a call to a tool outside the selection as an unknown tool, over plain HTTP', async () => {
    const call = (query: string, name: string) =>
      rpc(query, {}, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {} } });
    const outside = await call('?toolsets=posts', 'list_messages');
    const unknown = await call('?toolsets=posts', 'no_such_tool');
    expect(outside.body.error).toMatchObject({ code: -32602 });
    expect(outside.body.error.code).toBe(unknown.body.error.code);
    const writeInReadOnly = await call('?readonly=true', 'create_post');
    expect(writeInReadOnly.body.error).toMatchObject({ code: -32602 });
  });
});

describe.each(CLIENT_KINDS)('MCP tool sets with %s', (kind) => {
  const connect = async (options: ConnectOptions) => {
    const connection = await connectMcp(kind, { key: alice.key, profileId: alice.profile.id, ...options });
    open.push(connection);
    return connection;
  };

  it('lists and calls only the selected tools', async () => {
    const mcp = await connect({ query: 'toolsets=messages,profiles&readonly=true' });
    expect((await mcp.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      [
        'get_conversation_unread_count',
        'get_profile',
        'list_conversations',
        'list_messages',
        'list_occupations',
      ].sort(),
    );
    expect(toolData(await mcp.callTool('get_profile', { profile_id: alice.profile.id })).id).toBe(alice.profile.id);
    await expect(
      mcp.callTool('send_message', { recipient_profile_id: alice.profile.id, body: 'no' }),
    ).rejects.toMatchObject({
      code: -32602,
    });
    await expect(mcp.callTool('get_post', { post_id: alice.profile.id })).rejects.toMatchObject({ code: -32602 });
  });

  it('takes the selection from headers', async () => {
    const mcp = await connect({ headers: { 'X-MCP-Toolsets': 'follows' } });
    expect((await mcp.listTools()).tools.map((tool) => tool.name).sort()).toEqual(namesIn('follows'));
  });
});
