/**
 * Composite MCP tools (shared/mcp/composite.ts): described like every tool, calling only bundled
 * tool routes, their arguments checked by their own schema; and `search` / `fetch` combining the
 * routes' answers (here from a stand-in caller; test/e2e/mcp-search-fetch.test.ts runs the routes).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolHandlers } from '../../functions/mcp/tool-handlers.js';
import type { Outcome, ToolArguments } from '../../shared/mcp/call.js';
import { documentUrl, parseDocumentId } from '../../shared/mcp/chatgpt/documents.js';
import { defineCompositeTool, type RouteToolCaller } from '../../shared/mcp/composite.js';
import { compositeTools } from '../../shared/mcp/composite-tools.js';
import { tools, type Tool } from '../../shared/mcp/tools.js';

const refsIn = (value: unknown): string[] =>
  value !== null && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, sub]) => (key === '$ref' ? [String(sub)] : refsIn(sub)))
    : [];

const named = (name: string) => compositeTools.find((tool) => tool.name === name)!;

/** A stand-in for the routes: answers by route name, and records each call. */
function routesAnswering(answers: Record<string, Outcome<unknown>>) {
  const calls: { route: string; args: ToolArguments }[] = [];
  const callTool: RouteToolCaller = (tool: Tool, args) => {
    calls.push({ route: tool.route.name, args });
    const answer = answers[tool.route.name];
    if (!answer) throw new Error(`unexpected call of ${tool.route.name}`);
    return Promise.resolve(answer);
  };
  return { calls, callTool };
}

const BASE = 'https://api.example.com';
const profile = { id: randomUUID(), username: 'ana', name: 'Ana Silva', occupation: 'Engineer', bio: null };
const post = { id: randomUUID(), body: 'First line of a post\nsecond line' };
const profilesPage = { ok: true, data: { items: [{ profile }], next_cursor: null } } as const;
const postsPage = { ok: true, data: { items: [{ post, profile }], next_cursor: null } } as const;
const refused = (code: string) => ({ ok: false, error: { error_code: code, error_message: code } }) as const;

describe('composite tools', () => {
  it('are described like the route tools: unique names, titles, the user-content note, four annotations, flat schemas', () => {
    const names = [...tools, ...compositeTools].map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    expect(compositeTools.map((tool) => tool.name)).toEqual(['search', 'fetch', 'wait_for_events']);
    for (const tool of compositeTools) {
      expect(tool.title.length, tool.name).toBeGreaterThan(3);
      expect(tool.description, tool.name).toContain('user content');
      expect(Object.keys(tool.annotations).sort(), tool.name).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
      ]);
      expect(refsIn(tool.inputSchema), tool.name).toEqual([]);
      expect(refsIn(tool.outputSchema), tool.name).toEqual([]);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.toolset, tool.name).toBe(tool.name === 'wait_for_events' ? 'notifications' : 'search');
    }
  });

  it('call only tool routes, whose handlers the MCP function bundles', () => {
    const bundled = new Set(Object.keys(toolHandlers));
    for (const tool of compositeTools) {
      expect(tool.uses.length, tool.name).toBeGreaterThan(0);
      for (const used of tool.uses) expect(bundled.has(used.route.handler), used.name).toBe(true);
    }
    expect(named('search').uses.map((tool) => tool.name)).toEqual(['search_profiles', 'search_posts']);
    expect(named('fetch').uses.map((tool) => tool.name)).toEqual(['get_post', 'get_profile']);
    expect(() =>
      defineCompositeTool({
        name: 'broken',
        title: 'Broken',
        description: 'Calls a route that is no tool.',
        toolset: 'search',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        input: z.object({}),
        output: z.object({}),
        routes: ['getOpenApi'],
        run: () => Promise.resolve({ ok: true, data: {} }),
      }),
    ).toThrow(/getOpenApi, which is no MCP tool/);
  });

  it('refuse arguments their input schema does not take, before calling any route', async () => {
    const { calls, callTool } = routesAnswering({});
    const answer = await named('fetch').run({ id: 'post:x', extra: 1 }, callTool, BASE);
    expect(answer).toMatchObject({ ok: false, error: { error_code: 'invalid_request', hint: expect.any(String) } });
    expect(calls).toEqual([]);
  });
});

describe('search', () => {
  it('asks for a few profiles and the top posts, and answers profiles first', async () => {
    const { calls, callTool } = routesAnswering({ searchProfiles: profilesPage, searchPosts: postsPage });
    const answer = await named('search').run({ query: ' ana ' }, callTool, BASE);
    expect(calls).toEqual([
      { route: 'searchProfiles', args: { q: 'ana', limit: 5 } },
      { route: 'searchPosts', args: { q: 'ana', sort: 'top', limit: 20 } },
    ]);
    expect(answer).toEqual({
      ok: true,
      data: {
        results: [
          {
            id: `profile:${profile.id}`,
            title: 'Ana Silva (@ana), Engineer',
            url: `${BASE}/v1/profiles/${profile.id}`,
          },
          {
            id: `post:${post.id}`,
            title: 'Ana Silva (@ana): First line of a post',
            url: `${BASE}/v1/posts/${post.id}`,
          },
        ],
      },
    });
  });

  it('skips profile search for a query longer than a name can be', async () => {
    const { calls, callTool } = routesAnswering({ searchPosts: postsPage });
    const answer = await named('search').run({ query: 'x'.repeat(101) }, callTool, BASE);
    expect(calls.map((c) => c.route)).toEqual(['searchPosts']);
    expect(answer).toMatchObject({ ok: true, data: { results: [{ id: `post:${post.id}` }] } });
  });

  it('answers the results of the search that could read the query, an error of another kind, or post search’s refusal', async () => {
    const run = (answers: Record<string, Outcome<unknown>>) =>
      named('search').run({ query: 'ana' }, routesAnswering(answers).callTool, BASE);
    expect(await run({ searchProfiles: refused('invalid_request'), searchPosts: postsPage })).toMatchObject({
      ok: true,
      data: { results: [{ id: `post:${post.id}` }] },
    });
    expect(await run({ searchProfiles: profilesPage, searchPosts: refused('rate_limited') })).toMatchObject({
      ok: false,
      error: { error_code: 'rate_limited' },
    });
    const both = await run({
      searchProfiles: refused('invalid_request'),
      searchPosts: { ok: false, error: { error_code: 'invalid_request', error_message: 'from posts' } },
    });
    expect(both).toMatchObject({ ok: false, error: { error_message: 'from posts' } });
  });
});

describe('document ids and URLs', () => {
  it('read post:<uuid> and profile:<uuid>, nothing else', () => {
    const id = randomUUID();
    expect(parseDocumentId(`post:${id}`)).toEqual({ kind: 'post', id });
    expect(parseDocumentId(` profile:${id} `)).toEqual({ kind: 'profile', id });
    for (const bad of [id, `comment:${id}`, 'post:123', `post:${id}:more`, `Post:${id}`, ''])
      expect(parseDocumentId(bad), bad).toBeUndefined();
  });

  it('point at the API reads', () => {
    expect(documentUrl(BASE, 'post', 'p1')).toBe(`${BASE}/v1/posts/p1`);
    expect(documentUrl(BASE, 'profile', 'a1')).toBe(`${BASE}/v1/profiles/a1`);
  });
});
