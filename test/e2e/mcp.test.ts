/**
 * The MCP endpoint through the official clients: @modelcontextprotocol/sdk 1.x (2025-11-25) and
 * @modelcontextprotocol/client 2.x (negotiates 2026-07-28), each tool call running its route.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createApiKey, createProfile, unique } from '../support/api.js';
import { CLIENT_KINDS, connectMcp, toolData, toolError, type McpConnection } from '../support/mcp.js';
import { actor, ok, settledCount, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});
/** Connected with `toolsets=all`: these tests use tools of every set (the selection is tested in mcp-toolsets.test.ts). */
const connect = async (...[kind, options]: Parameters<typeof connectMcp>) => {
  const connection = await connectMcp(kind, { query: 'toolsets=all', ...options });
  open.push(connection);
  return connection;
};

describe.each(CLIENT_KINDS)('the MCP endpoint with %s', (kind) => {
  it('speaks its protocol revision, lists the tools with their metadata, and runs the routes as its profile', async () => {
    const mcp = await connect(kind, { key: alice.key, profileId: alice.profile.id });
    expect(mcp.version).toBe(kind.startsWith('sdk') ? '2025-11-25' : '2026-07-28');
    // The model is told how the tool sets, the acting profile, paging and errors work.
    expect(mcp.instructions).toMatch(/toolsets=/);
    expect(mcp.instructions).toMatch(/profile_id/);

    const { tools } = await mcp.listTools();
    const getPost = tools.find((tool) => tool.name === 'get_post');
    expect(getPost).toMatchObject({
      title: 'Get a post',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      inputSchema: { type: 'object', required: ['post_id'] },
    });
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['create_post', 'react_to_post', 'list_post_comments', 'follow_profile', 'send_message']),
    );

    const created = toolData(await mcp.callTool('create_post', { body: `hello from ${kind}` }));
    expect(created.post).toMatchObject({
      profile_id: alice.profile.id,
      body: `hello from ${kind}`,
      status: 'published',
    });
    // The author's profile travels with the text it wrote, typed.
    expect(created.profile).toMatchObject({ id: alice.profile.id, type: 'human' });
    const postId = created.post.id as string;

    const read = toolData(await mcp.callTool('get_post', { post_id: postId }));
    expect(read.post.id).toBe(postId);
    const liked = toolData(
      await mcp.callTool('react_to_post', { post_id: postId, reaction_type: 'like', active: true }),
    );
    expect(liked).toMatchObject({ likes_count: 1, viewer_reaction: 'like' });
    expect(
      await settledCount(
        'likes',
        async () => ok(await call('GET', `/v1/posts/${postId}`)).post.likes_count as number,
        1,
      ),
    ).toBe(1);

    for (const text of ['first', 'second', 'third'])
      toolData(await mcp.callTool('create_comment', { post_id: postId, body: text }));
    const page1 = toolData(await mcp.callTool('list_post_comments', { post_id: postId, limit: 2 }));
    expect(page1.items).toHaveLength(2);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = toolData(
      await mcp.callTool('list_post_comments', { post_id: postId, limit: 2, cursor: page1.next_cursor }),
    );
    expect([...page1.items, ...page2.items].map((item: any) => item.comment.body)).toEqual([
      'first',
      'second',
      'third',
    ]);

    const followed = toolData(await mcp.callTool('follow_profile', { followed_profile_id: bob.profile.id }));
    expect(followed).toBeDefined();
    const sent = toolData(await mcp.callTool('send_message', { recipient_profile_id: bob.profile.id, body: 'hi bob' }));
    expect(sent.message).toMatchObject({ sender_profile_id: alice.profile.id, body: 'hi bob' });
    const conversation = ok(
      await call('GET', `/v1/messages?with_profile_id=${alice.profile.id}`, {
        token: bob.key,
        profileId: bob.profile.id,
      }),
    );
    expect(conversation.items.map((m: any) => m.body)).toContain('hi bob');
  });

  it('answers failures as tool errors with the code, message and hint of the route', async () => {
    const mcp = await connect(kind, { key: alice.key, profileId: alice.profile.id });
    const invalid = toolError(await mcp.callTool('create_post', { body: '' }));
    expect(invalid).toMatchObject({ error_code: 'invalid_request', error_message: expect.any(String) });
    // Errors name the tool's own arguments (`body`, `post_id`), not the route's request parts.
    const empty = toolError(await mcp.callTool('create_post', {}));
    expect(`${empty.error_message} ${empty.hint}`).not.toMatch(/body\.body/);
    expect(empty.hint).toMatch(/\bbody\b/);
    const noId = toolError(await mcp.callTool('get_post', {}));
    expect(noId).toMatchObject({ error_code: 'invalid_request', error_message: 'post_id is required.' });
    const missing = toolError(await mcp.callTool('get_post', { post_id: randomUUID() }));
    expect(missing.error_code).toBe('not_found');
    const notMine = toolError(await mcp.callTool('create_post', { body: 'as bob?', profile_id: bob.profile.id }));
    expect(notMine).toMatchObject({ error_code: 'profile_not_permitted', hint: expect.any(String) });
    // Protocol errors stay JSON-RPC errors.
    await expect(mcp.callTool('no_such_tool', {})).rejects.toMatchObject({ code: -32602 });
  });

  it('names the profiles the key may act as when an acting tool gets none', async () => {
    const mcp = await connect(kind, { key: alice.key });
    const error = toolError(await mcp.callTool('create_post', { body: 'who am I?' }));
    expect(error.error_code).toBe('invalid_request');
    expect(error.profiles).toEqual([{ id: alice.profile.id, username: alice.profile.username, type: 'human' }]);
  });

  it('acts as profile_id when the call names it, over the X-Profile-Id header', async () => {
    const second = await createProfile(alice.session, { username: unique('second') });
    const { key } = await createApiKey(alice.session, alice.workspaceId, ['all:all'], [alice.profile.id, second.id]);
    const mcp = await connect(kind, { key, profileId: alice.profile.id });
    const byHeader = toolData(await mcp.callTool('create_post', { body: 'by header' }));
    expect(byHeader.post.profile_id).toBe(alice.profile.id);
    const byArgument = toolData(await mcp.callTool('create_post', { body: 'by argument', profile_id: second.id }));
    expect(byArgument.post.profile_id).toBe(second.id);
  });

  it('creates once for one idempotency_key', async () => {
    const author = await actor();
    const mcp = await connect(kind, { key: author.key, profileId: author.profile.id });
    const args = { body: 'exactly once', idempotency_key: unique('idem') };
    const first = toolData(await mcp.callTool('create_post', args));
    const again = toolData(await mcp.callTool('create_post', args));
    expect(again.post.id).toBe(first.post.id);
    const posts = ok(await call('GET', `/v1/profiles/${author.profile.id}/posts`));
    expect(posts.items).toHaveLength(1);
  });

  it("lists only the tools the key's scopes allow, and the route refuses the others", async () => {
    const writer = await actor(['posts:write']);
    const mcp = await connect(kind, { key: writer.key, profileId: writer.profile.id });
    const names = (await mcp.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('create_post');
    expect(names).toContain('get_post'); // public reads are always listed
    expect(names).not.toContain('send_message');
    expect(names).not.toContain('list_messages');
    const refused = toolError(
      await mcp.callTool('send_message', { recipient_profile_id: bob.profile.id, body: 'not allowed' }),
    );
    expect(refused).toMatchObject({
      error_code: 'insufficient_scope',
      hint: expect.stringContaining('messages:write'),
    });
  });

  it('refuses to connect without a valid credential', async () => {
    await expect(connectMcp(kind, {})).rejects.toThrow();
    await expect(connectMcp(kind, { key: 'sk_not_a_key' })).rejects.toThrow();
  });
});

describe('POST /mcp over plain HTTP', () => {
  const mcpUrl = () => new URL('/mcp', inject('baseUrl'));
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it('answers 401 with WWW-Authenticate: Bearer and the envelope, without or with a bad credential', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer sk_nope' },
      { authorization: 'Basic abc' },
    ];
    for (const headers of attempts) {
      const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${inject('baseUrl')}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(await response.json()).toMatchObject({ ok: false, error_code: 'unauthorized', data: null });
    }
  });

  it('leaves a call with a credential that stopped working (revoked since connecting) to its route: a tool error', async () => {
    const response = await rpc(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_post', arguments: { post_id: randomUUID() } },
      },
      { authorization: 'Bearer sk_revoked' },
    );
    expect(response.status).toBe(200);
    const json = /^data: (.*)$/m.exec(await response.text())![1]!;
    const { result } = JSON.parse(json) as { result: { isError: boolean; content: { text: string }[] } };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ error_code: 'unauthorized', hint: expect.any(String) });
  });

  it('answers GET and DELETE with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(mcpUrl(), { method, headers: { authorization: `Bearer ${alice.key}` } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({ ok: false, error_code: 'method_not_allowed' });
    }
  });

  it('keeps tools/list of every tool set for an all:all key within its 64,000-byte budget', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${alice.key}`, 'x-mcp-toolsets': 'all' },
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    // The 2025-11-25 answer is one SSE message: its data line is the JSON-RPC response.
    const json = /^data: (.*)$/m.exec(text)?.[1] ?? text;
    const answer = JSON.parse(json) as { result: { tools: unknown[] } };
    expect(answer.result.tools.length).toBeGreaterThan(20);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(64_000);
  });
});

/** edit_comment and delete_comment (tool set `edits`, outside the default listing's budget). */
describe.each(CLIENT_KINDS)('the comment tools with %s', (kind) => {
  it('edit and delete your comment; someone else is refused', async () => {
    const p = ok(
      await call('POST', '/v1/posts', { token: alice.key, profileId: alice.profile.id, body: { body: 'tools' } }),
      201,
    ).post;
    const [mcp, other] = await Promise.all([
      connect(kind, { key: bob.key, profileId: bob.profile.id }),
      connect(kind, { key: alice.key, profileId: alice.profile.id }),
    ]);
    const { tools } = await mcp.listTools();
    const edit = tools.find((tool) => tool.name === 'edit_comment');
    expect(edit).toMatchObject({ title: 'Edit your comment', inputSchema: { required: ['comment_id', 'body'] } });
    expect(tools.find((tool) => tool.name === 'delete_comment')).toMatchObject({
      annotations: { destructiveHint: true },
    });

    const created = toolData(await mcp.callTool('create_comment', { post_id: p.id, body: 'draft thought' }));
    const edited = toolData(await mcp.callTool('edit_comment', { comment_id: created.comment.id, body: 'final' }));
    expect(edited.comment).toMatchObject({ id: created.comment.id, body: 'final' });
    expect(edited.comment.edited_at).toEqual(expect.any(String));

    const refused = toolError(await other.callTool('edit_comment', { comment_id: created.comment.id, body: 'mine' }));
    expect(refused.error_code).toBe('forbidden');
    expect(toolData(await mcp.callTool('delete_comment', { comment_id: created.comment.id }))).toEqual({
      deleted: true,
    });
    expect(ok(await call('GET', `/v1/posts/${p.id}`)).post.comments_count).toBe(0);
    expect(
      toolError(await mcp.callTool('edit_comment', { comment_id: created.comment.id, body: 'x' })).error_code,
    ).toBe('not_found');
  });
});
