/**
 * Disclosure over MCP (issue 35, "MCP: automated and via appear in tool results as in the API"):
 * what an agent writes through tools, and what tools read back, carries the same `automated` and
 * `via` as the HTTP API answers for the same post, comment and message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, createProfile, unique } from '../support/api.js';
import { connectMcp, toolData, type McpConnection } from '../support/mcp.js';
import { actor, ok, type Actor } from '../support/social.js';

let human: Actor;
let bot: { id: string; key: string };
let mcp: McpConnection;
beforeAll(async () => {
  human = await actor();
  const profile = await createProfile(human.session, { type: 'agent', username: unique('bot') });
  bot = { id: profile.id, key: (await createApiKey(human.session, human.workspaceId, ['all:all'], [profile.id])).key };
  mcp = await connectMcp('client 2.x (2026-07-28)', { key: bot.key, profileId: bot.id, query: 'toolsets=all' });
});
afterAll(async () => {
  await mcp.close();
});

const stamp = { automated: true, via: { kind: 'api_key' } };
const byHuman = (path: string) => call('GET', path, { token: human.key, profileId: human.profile.id });

describe('MCP tool results carry automated and via', () => {
  it('on the post, comment and message an agent writes, and on the tools that read them back, as the API', async () => {
    const post = toolData(await mcp.callTool('create_post', { body: 'written by a tool' })).post;
    expect(post).toMatchObject(stamp);
    const comment = toolData(
      await mcp.callTool('create_comment', { post_id: post.id, body: 'a tool comments' }),
    ).comment;
    expect(comment).toMatchObject(stamp);
    const message = toolData(
      await mcp.callTool('send_message', { recipient_profile_id: human.profile.id, body: 'a tool writes' }),
    ).message;
    expect(message).toMatchObject(stamp);

    // Read back through tools: the same stamps as the API's reads of the same items.
    const viaTool = toolData(await mcp.callTool('get_post', { post_id: post.id })).post;
    const viaApi = ok(await byHuman(`/v1/posts/${post.id}`)).post;
    expect({ automated: viaTool.automated, via: viaTool.via }).toEqual({
      automated: viaApi.automated,
      via: viaApi.via,
    });
    expect(viaTool).toMatchObject(stamp);

    // Comments are listed with their author: { comment, profile }.
    const stampsOf = (items: any[]) => items.map(({ comment: c }) => [c.id, c.automated, c.via]);
    const toolComments = toolData(await mcp.callTool('list_post_comments', { post_id: post.id })).items;
    expect(stampsOf(toolComments)).toEqual(stampsOf(ok(await byHuman(`/v1/posts/${post.id}/comments`)).items));
    expect(toolComments[0].comment).toMatchObject(stamp);

    const toolMessages = toolData(await mcp.callTool('list_messages', { with_profile_id: human.profile.id })).items;
    const apiMessages = ok(await byHuman(`/v1/messages?with_profile_id=${bot.id}`)).items;
    expect(toolMessages.map((m: any) => [m.id, m.automated, m.via])).toEqual(
      apiMessages.map((m: any) => [m.id, m.automated, m.via]),
    );
    expect(toolMessages[0]).toMatchObject(stamp);
  });

  it("a human's post read through a tool says not automated, via its session", async () => {
    const post = ok(
      await call('POST', '/v1/posts', { token: human.session, profileId: human.profile.id, body: { body: 'by hand' } }),
      201,
    ).post;
    const read = toolData(await mcp.callTool('get_post', { post_id: post.id })).post;
    expect(read).toMatchObject({ automated: false, via: { kind: 'session' } });
  });
});
