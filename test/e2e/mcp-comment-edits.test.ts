/**
 * The edit_comment and delete_comment tools (tool set `edits`, outside the default listing's budget):
 * each runs its route as the connection's profile.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { CLIENT_KINDS, connectMcp, toolData, toolError, type McpConnection } from '../support/mcp.js';
import { actor, ok, post, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});
const connect = async (a: Actor, kind: (typeof CLIENT_KINDS)[number]) => {
  const connection = await connectMcp(kind, { key: a.key, profileId: a.profile.id, query: 'toolsets=posts,edits' });
  open.push(connection);
  return connection;
};

describe.each(CLIENT_KINDS)('the comment tools with %s', (kind) => {
  it('edit and delete your comment; someone else is refused', async () => {
    const { post: p } = await post(alice, { body: 'tools' });
    const [mcp, other] = await Promise.all([connect(bob, kind), connect(alice, kind)]);
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
