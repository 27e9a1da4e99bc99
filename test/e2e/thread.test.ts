/**
 * GET /v1/posts/{post_id}/thread and the get_thread tool: the chain above a post (root first, the
 * nearest 20, placeholders where a post cannot be seen), the post, and its direct replies paged
 * oldest first.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newBlock, newMute } from '../../shared/domain/safety.js';
import { block, mute } from '../../shared/store/safety.js';
import { call, expectError } from '../support/api.js';
import { CLIENT_KINDS, connectMcp, toolData, toolError, type McpConnection } from '../support/mcp.js';
import { actor, ok, post, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const thread = (postId: string, query = '', as?: Actor) =>
  call('GET', `/v1/posts/${postId}/thread${query}`, as ? { token: as.key, profileId: as.profile.id } : {});

const reply = async (author: Actor, parentId: string, body: string) =>
  (await post(author, { body, reply_to_post_id: parentId })).post as { id: string };

/** A root post and `depth` replies each answering the one before: the chain's post ids, root first. */
async function chain(depth: number): Promise<string[]> {
  const ids = [(await post(alice, { body: 'root' })).post.id as string];
  for (let i = 1; i <= depth; i++) ids.push((await reply(i % 2 ? bob : alice, ids.at(-1)!, `level ${i}`)).id);
  return ids;
}

describe('GET /v1/posts/{post_id}/thread', () => {
  it('keeps the nearest 20 ancestors of a deeper chain, root side first, each with its author', async () => {
    const ids = await chain(24);
    const page = ok(await thread(ids[24]!));
    expect(page.ancestors.map((a: any) => a.post.id)).toEqual(ids.slice(4, 24));
    expect(page.ancestors[19]).toMatchObject({
      post: { body: 'level 23', reply_count: 1 },
      profile: { id: bob.profile.id },
    });
    expect(page.ancestors[0].profile.id).toBe(alice.profile.id);
    expect(page.post).toMatchObject({ post: { id: ids[24], root_post_id: ids[0], kind: 'reply' } });
    expect(page.replies).toEqual([]);
    expect(page.next_cursor).toBeNull();

    // A shallow chain has every ancestor, the root first; a root has none.
    expect(ok(await thread(ids[3]!)).ancestors.map((a: any) => a.post.id)).toEqual(ids.slice(0, 3));
    const root = ok(await thread(ids[0]!));
    expect(root.ancestors).toEqual([]);
    expect(root.replies.map((r: any) => r.post.id)).toEqual([ids[1]]);
  });

  it('keeps a removed ancestor as a placeholder in its place', async () => {
    const ids = await chain(3);
    ok(await call('DELETE', `/v1/posts/${ids[1]}`, { token: bob.key, profileId: bob.profile.id }));
    for (const as of [undefined, bob]) {
      // Even its author sees the chain as it is published.
      const page = ok(await thread(ids[3]!, '', as));
      expect(page.ancestors).toHaveLength(3);
      expect(page.ancestors[0].post.id).toBe(ids[0]);
      expect(page.ancestors[1]).toEqual({ post: null, profile: null, post_id: ids[1], unavailable: true });
      expect(page.ancestors[2].post.id).toBe(ids[2]);
    }
    // The removed post itself reads as 404 to others, and to its author with its own chain and replies.
    expectError(await thread(ids[1]!), 404, 'not_found');
    const own = ok(await thread(ids[1]!, '', bob));
    expect(own.post.post.status).toBe('removed');
    expect(own.replies.map((r: any) => r.post.id)).toEqual([ids[2]]);
  });

  it('pages the direct published replies oldest first, each with its own reply_count', async () => {
    const parent = (await post(alice, { body: 'ask me anything' })).post.id as string;
    const replies: string[] = [];
    for (let i = 0; i < 5; i++) replies.push((await reply(i % 2 ? alice : bob, parent, `answer ${i}`)).id);
    await reply(alice, replies[1]!, 'nested, not a direct reply');
    await post(bob, { body: 'a draft reply', reply_to_post_id: parent, status: 'draft' });
    const removed = await reply(bob, parent, 'soon removed');
    ok(await call('DELETE', `/v1/posts/${removed.id}`, { token: bob.key, profileId: bob.profile.id }));

    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = ok(await thread(parent, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      expect(page.post.post.id).toBe(parent);
      expect(page.replies.length).toBeLessThanOrEqual(2);
      seen.push(...page.replies);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.map((r) => r.post.id)).toEqual(replies);
    expect(seen.map((r) => r.post.reply_count)).toEqual([0, 1, 0, 0, 0]);
    expect(seen[0].profile.id).toBe(bob.profile.id);
    // The default page holds them all.
    expect(ok(await thread(parent)).replies).toHaveLength(5);
  });

  it('refuses forged cursors, another list’s cursors and limits out of range with 400', async () => {
    const parent = (await post(alice, { body: 'two answers' })).post.id as string;
    const other = (await post(alice, { body: 'two more answers' })).post.id as string;
    for (const id of [parent, parent, other, other]) await reply(bob, id, 'an answer');
    const first = ok(await thread(parent, '?limit=1'));
    expect(first.next_cursor).toEqual(expect.any(String));
    const key = JSON.parse(Buffer.from(first.next_cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    const encode = (forged: unknown) => Buffer.from(JSON.stringify(forged)).toString('base64url');
    for (const cursor of ['not-a-cursor', encode({ ...key, sk: 7 }), encode({ ...key, gsi1pk: 'x' }), encode([key])])
      expect(expectError(await thread(parent, `?cursor=${cursor}`), 400, 'invalid_request').agent.hint).toContain(
        'next_cursor',
      );
    // The cursor of another post's replies does not read this post's.
    expectError(await thread(other, `?cursor=${first.next_cursor}`), 400, 'invalid_request');
    for (const limit of ['0', '101', 'x']) expectError(await thread(parent, `?limit=${limit}`), 400, 'invalid_request');
    // The genuine cursor pages on.
    expect(ok(await thread(parent, `?limit=1&cursor=${first.next_cursor}`)).replies).toHaveLength(1);
  });

  it('answers 404 for an unknown post and another author’s draft; the author reads their own draft', async () => {
    expectError(await thread(randomUUID()), 404, 'not_found');
    expectError(await thread('not-a-uuid'), 400, 'invalid_request');
    const draft = (await post(alice, { body: 'not yet', status: 'draft' })).post.id as string;
    expectError(await thread(draft), 404, 'not_found');
    expectError(await thread(draft, '', bob), 404, 'not_found');
    expect(ok(await thread(draft, '', alice)).post.post).toMatchObject({ id: draft, status: 'draft' });
  });

  it("gives each post the acting profile's viewer_reaction, and null to an anonymous reader", async () => {
    const ids = await chain(2);
    const answers = [await reply(alice, ids[2]!, 'first'), await reply(alice, ids[2]!, 'second')];
    const like = async (id: string) =>
      ok(
        await call('PUT', `/v1/posts/${id}/reaction`, {
          token: bob.key,
          profileId: bob.profile.id,
          body: { reaction_type: 'like', active: true },
        }),
      );
    await Promise.all([ids[0]!, ids[2]!, answers[1]!.id].map(like));

    const mine = ok(await thread(ids[2]!, '', bob));
    expect(mine.ancestors.map((a: any) => a.post.viewer_reaction)).toEqual(['like', null]);
    expect(mine.post.post.viewer_reaction).toBe('like');
    expect(mine.replies.map((r: any) => r.post.viewer_reaction)).toEqual([null, 'like']);

    const anonymous = ok(await thread(ids[2]!));
    const all = [...anonymous.ancestors, anonymous.post, ...anonymous.replies].map((e: any) => e.post.viewer_reaction);
    expect(all).toEqual([null, null, null, null, null]);
    // A profile the key may not act as is refused, not read anonymously.
    expectError(
      await call('GET', `/v1/posts/${ids[2]}/thread`, { token: alice.key, profileId: bob.profile.id }),
      403,
      'profile_not_permitted',
    );
  });
});

describe("the thread with the acting profile's blocks and mutes", () => {
  it('shows an ancestor by a muted or blocked author as a placeholder, leaves their replies out, and 404s a post across a block', async () => {
    const [carol, dave, erin] = await Promise.all([actor(), actor(), actor()]);
    const root = (await post(alice, { body: 'root' })).post.id as string;
    const byCarol = await reply(carol, root, 'carol answers');
    const byAlice = await reply(alice, byCarol.id, 'alice answers carol');
    const replies = [await reply(carol, byAlice.id, 'carol again'), await reply(dave, byAlice.id, 'dave too')];
    const replyIds = replies.map((r) => r.id);
    const now = new Date();
    await mute(newMute(now, erin.profile.id, carol.profile.id));
    await block(newBlock(now, dave.profile.id, erin.profile.id));

    const seen = ok(await thread(byAlice.id, '', erin));
    expect(seen.ancestors[0].post.id).toBe(root);
    expect(seen.ancestors[1]).toEqual({ post: null, profile: null, post_id: byCarol.id, unavailable: true });
    expect(seen.replies).toEqual([]);
    // Anonymous readers and other profiles see everything.
    for (const as of [undefined, bob]) {
      const page = ok(await thread(byAlice.id, '', as));
      expect(page.ancestors[1].post.id).toBe(byCarol.id);
      expect(page.replies.map((r: any) => r.post.id)).toEqual(replyIds);
    }
    // A muted author's post itself still reads; a post across a block does not, either way.
    expect(ok(await thread(byCarol.id, '', erin)).post.post.id).toBe(byCarol.id);
    expectError(await thread(replies[1]!.id, '', erin), 404, 'not_found');
    expect(ok(await thread(replies[1]!.id, '', dave)).post.post.id).toBe(replies[1]!.id);
  });
});

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe.each(CLIENT_KINDS)('the get_thread tool with %s', (kind) => {
  it('reads a thread page by page as the acting profile, and answers not_found as a tool error', async () => {
    const ids = await chain(2);
    const answers = [await reply(alice, ids[2]!, 'one'), await reply(bob, ids[2]!, 'two')];
    const mcp = await connectMcp(kind, { key: bob.key, profileId: bob.profile.id });
    open.push(mcp);
    const listed = (await mcp.listTools()).tools.find((tool) => tool.name === 'get_thread');
    expect(listed).toMatchObject({ annotations: { readOnlyHint: true }, inputSchema: { required: ['post_id'] } });

    const first = toolData(await mcp.callTool('get_thread', { post_id: ids[2], limit: 1 }));
    expect(first.ancestors.map((a: any) => a.post.id)).toEqual(ids.slice(0, 2));
    expect(first.replies.map((r: any) => r.post.id)).toEqual([answers[0]!.id]);
    const second = toolData(await mcp.callTool('get_thread', { post_id: ids[2], limit: 1, cursor: first.next_cursor }));
    expect(second.replies.map((r: any) => r.post.id)).toEqual([answers[1]!.id]);
    expect(second.replies[0].profile.id).toBe(bob.profile.id);

    expect(toolError(await mcp.callTool('get_thread', { post_id: randomUUID() })).error_code).toBe('not_found');
  });
});
