/**
 * The `search` and `fetch` MCP tools in the shape ChatGPT's connectors and deep research call
 * (API.md "Search", last bullet), through the official clients: results over people and posts,
 * documents read by id, a tool error with a hint for an id that names nothing, and the acting
 * profile's blocks and mutes applied as the search and read routes apply them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../support/api.js';
import { CLIENT_KINDS, connectMcp, toolData, toolError, type McpConnection } from '../support/mcp.js';
import { actor, ok, post, type Actor } from '../support/social.js';
import { waitFor } from '../support/webhooks.js';

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});
const connect = async (...[kind, options]: Parameters<typeof connectMcp>) => {
  const connection = await connectMcp(kind, { query: 'toolsets=search', ...options });
  open.push(connection);
  return connection;
};

/** A word nobody else's posts contain. */
const word = () => `w${randomBytes(5).toString('hex')}`;
const base = () => inject('baseUrl').replace(/\/+$/, '');

interface Result {
  id: string;
  title: string;
  url: string;
}
const search = async (mcp: McpConnection, query: string) =>
  toolData(await mcp.callTool('search', { query })).results as Result[];
/** Searches until `check` holds (the index follows the table within 2 s). */
const searchUntil = (mcp: McpConnection, query: string, check: (results: Result[]) => boolean) =>
  waitFor(
    `search ${query}`,
    async () => {
      const results = await search(mcp, query);
      return check(results) ? results : undefined;
    },
    10_000,
  );

let alice: Actor;
beforeAll(async () => {
  alice = await actor();
  ok(
    await call('PATCH', `/v1/profiles/${alice.profile.id}`, {
      token: alice.key,
      profileId: alice.profile.id,
      body: { bio: 'Builds serverless search.' },
    }),
  );
});

describe.each(CLIENT_KINDS)('search and fetch with %s', (kind) => {
  it('are listed in the search tool set, read-only, with output schemas', async () => {
    const mcp = await connect(kind, { key: alice.key });
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['fetch', 'search', 'search_posts', 'search_profiles']);
    for (const name of ['search', 'fetch']) {
      const tool = tools.find((candidate) => candidate.name === name)!;
      expect(tool.annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.outputSchema, name).toMatchObject({ type: 'object' });
    }
    expect(tools.find((tool) => tool.name === 'search')!.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { query: { type: 'string' } },
    });
  });

  it('search answers people first, then posts, each with an id fetch reads and the absolute API read URL', async () => {
    const mcp = await connect(kind, { key: alice.key });
    const w = word();
    const written = await post(alice, { body: `Notes by ${alice.profile.username}\non ${w} and #search` });
    const results = await searchUntil(mcp, alice.profile.username, (found) =>
      found.some((result) => result.id === `post:${written.post.id}`),
    );
    expect(results[0]).toEqual({
      id: `profile:${alice.profile.id}`,
      title: `Pat Example (@${alice.profile.username})`,
      url: `${base()}/v1/profiles/${alice.profile.id}`,
    });
    const hit = results.find((result) => result.id === `post:${written.post.id}`)!;
    expect(hit).toEqual({
      id: `post:${written.post.id}`,
      title: `Pat Example (@${alice.profile.username}): Notes by ${alice.profile.username}`,
      url: `${base()}/v1/posts/${written.post.id}`,
    });
    // The URL is the API read of the document.
    expect(ok(await call('GET', new URL(hit.url).pathname)).post.id).toBe(written.post.id);

    const postDocument = toolData(await mcp.callTool('fetch', { id: hit.id }));
    expect(postDocument).toMatchObject({ id: hit.id, title: hit.title, url: hit.url, text: written.post.body });
    expect(postDocument.metadata).toMatchObject({
      resource: 'post',
      author: { id: alice.profile.id, username: alice.profile.username, name: 'Pat Example', type: 'human' },
      kind: 'post',
      hashtags: ['search'],
      published_at: written.post.published_at,
      likes_count: 0,
      comments_count: 0,
    });

    const profileDocument = toolData(await mcp.callTool('fetch', { id: `profile:${alice.profile.id}` }));
    expect(profileDocument).toMatchObject({
      id: `profile:${alice.profile.id}`,
      url: `${base()}/v1/profiles/${alice.profile.id}`,
      text: `Pat Example (@${alice.profile.username})\n\nBuilds serverless search.`,
    });
    expect(profileDocument.metadata).toMatchObject({
      resource: 'profile',
      type: 'human',
      username: alice.profile.username,
      followers_count: 0,
      following_count: 0,
    });
    // A query of words no profile starts with: posts only.
    expect((await search(mcp, w)).map((result) => result.id)).toEqual([`post:${written.post.id}`]);
  });

  it('answers an id that names nothing, or no post or profile, with a tool error and a hint', async () => {
    const mcp = await connect(kind, { key: alice.key });
    for (const id of [`comment:${randomUUID()}`, 'post:not-a-uuid', randomUUID(), `post:${randomUUID()}:x`]) {
      const error = toolError(await mcp.callTool('fetch', { id }));
      expect(error, id).toMatchObject({ error_code: 'invalid_request' });
      expect(error.hint, id).toContain('post:<uuid> or profile:<uuid>');
    }
    for (const id of [`post:${randomUUID()}`, `profile:${randomUUID()}`]) {
      const error = toolError(await mcp.callTool('fetch', { id }));
      expect(error, id).toMatchObject({ error_code: 'not_found' });
      expect(error.hint, id).toContain('search again');
    }
    const empty = toolError(await mcp.callTool('search', { query: '   ' }));
    expect(empty).toMatchObject({ error_code: 'invalid_request', error_message: expect.stringContaining('query') });
    expect(empty.hint).toEqual(expect.any(String));
  });

  it("leaves out what the acting profile's blocks and mutes hide, and fetch finds nothing across a block", async () => {
    const [author, blocked, muter] = await Promise.all([actor(), actor(), actor()]);
    const w = word();
    const written = await post(author, { body: `${w} by ${author.profile.username}` });
    const anyone = await connect(kind, { key: alice.key });
    await searchUntil(anyone, author.profile.username, (found) => found.length === 2);
    ok(
      await call('POST', '/v1/profile-blocks', {
        token: author.key,
        profileId: author.profile.id,
        body: { blocked_profile_id: blocked.profile.id },
      }),
      201,
    );
    ok(
      await call('POST', '/v1/profile-mutes', {
        token: muter.key,
        profileId: muter.profile.id,
        body: { muted_profile_id: author.profile.id },
      }),
      201,
    );
    for (const viewer of [blocked, muter]) {
      const mcp = await connect(kind, { key: viewer.key, profileId: viewer.profile.id });
      expect(await search(mcp, author.profile.username), viewer.profile.username).toEqual([]);
      expect(await search(mcp, w), viewer.profile.username).toEqual([]);
    }
    const blockedMcp = await connect(kind, { key: blocked.key, profileId: blocked.profile.id });
    for (const id of [`post:${written.post.id}`, `profile:${author.profile.id}`])
      expect(toolError(await blockedMcp.callTool('fetch', { id })), id).toMatchObject({ error_code: 'not_found' });
    // Others still see both.
    expect((await search(anyone, author.profile.username)).map((result) => result.id)).toEqual([
      `profile:${author.profile.id}`,
      `post:${written.post.id}`,
    ]);
    expect(toolData(await anyone.callTool('fetch', { id: `post:${written.post.id}` })).text).toBe(written.post.body);
  });
});
