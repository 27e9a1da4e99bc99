/**
 * The MCP tools as the route table defines them: every tool described and annotated, schemas an
 * MCP client can use as they are (flat objects, no `$ref`), and the MCP function's bundled
 * handlers exactly the tool routes'.
 */
import { describe, expect, it } from 'vitest';
import { routeList, routes } from '../../shared/http/contract/route-table.js';
import { DEFAULT_TOOLSETS } from '../../shared/http/contract/toolsets.js';
import { tools } from '../../shared/mcp/tools.js';
import { toolHandlers } from '../../functions/mcp/tool-handlers.js';

const toolRoutes = routeList.filter((route) => route.mcp);

/** Every `$ref` anywhere in a JSON value. */
const refsIn = (value: unknown): string[] =>
  value !== null && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, sub]) => (key === '$ref' ? [String(sub)] : refsIn(sub)))
    : [];

describe('the MCP tools', () => {
  it('are the routes an API key may call, less the ones that say mcp: false; session routes are never tools', () => {
    expect(tools.length).toBeGreaterThan(20);
    // Sentry's ceiling (more tools, worse choices) holds for what a client lists without choosing tool sets.
    expect(tools.filter((tool) => DEFAULT_TOOLSETS.includes(tool.toolset)).length).toBeLessThanOrEqual(25);
    for (const route of routeList) {
      if (route.auth === 'session') expect(route.mcp, route.name).toBeUndefined();
      // A route an API key may call decides, in its definition, whether it is a tool.
      else expect(route.mcp, `${route.name} must declare mcp (metadata, or false)`).toBeDefined();
    }
    expect(routes.getOpenApi.mcp).toBe(false);
  });

  it('each has a unique name, a title, a description saying user content is data, and all four annotations', () => {
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of tools) {
      expect(tool.name, tool.name).toMatch(/^[a-z][a-z0-9_]{2,63}$/);
      expect(tool.title.length, tool.name).toBeGreaterThan(3);
      expect(tool.description, tool.name).toContain('user content');
      expect(Object.keys(tool.annotations).sort(), tool.name).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
      ]);
      for (const value of Object.values(tool.annotations)) expect(typeof value, tool.name).toBe('boolean');
    }
    expect(names).toEqual(expect.arrayContaining(['get_post', 'list_post_comments', 'react_to_post', 'create_post']));
  });

  it('derive the annotations from the method (GET reads, PUT and DELETE repeat safely, DELETE and revocations destroy)', () => {
    const byName = new Map(tools.map((tool) => [tool.name, tool.annotations]));
    expect(byName.get('get_post')).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.get('react_to_post')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('delete_post')).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(byName.get('create_post')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.get('revoke_profile_access')).toMatchObject({ destructiveHint: true });
  });

  it('have flat object input schemas with no $ref and no top-level union, and output schemas with no $ref', () => {
    for (const tool of tools) {
      expect(refsIn(tool.inputSchema), tool.name).toEqual([]);
      expect(refsIn(tool.outputSchema), tool.name).toEqual([]);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      for (const union of ['anyOf', 'oneOf', 'allOf']) expect(tool.inputSchema[union], tool.name).toBeUndefined();
      const fields = [...tool.fields.path, ...tool.fields.query, ...tool.fields.body];
      expect(Object.keys(tool.inputSchema.properties), tool.name).toEqual(
        expect.arrayContaining(fields.length > 0 ? fields : []),
      );
    }
  });

  it('take the acting profile where the route reads X-Profile-Id, and idempotency_key where it takes Idempotency-Key', () => {
    for (const tool of tools) {
      const properties = Object.keys(tool.inputSchema.properties);
      expect(tool.actingArgument !== undefined, tool.name).toBe(tool.route.actingProfile !== undefined);
      if (tool.actingArgument) expect(properties, tool.name).toContain(tool.actingArgument);
      expect(properties.includes('idempotency_key'), tool.name).toBe(tool.route.idempotent === true);
    }
    const createPost = tools.find((tool) => tool.name === 'create_post')!;
    expect(createPost.inputSchema.required).toEqual(['body']);
    expect(createPost.actingArgument).toBe('profile_id');
    // The route's own profile_id is the profile whose posts are listed; the acting one is named apart.
    expect(tools.find((tool) => tool.name === 'list_profile_posts')!.actingArgument).toBe('acting_profile_id');
  });
});

describe("the MCP function's bundled handlers", () => {
  it('are exactly the tool routes’ handlers (by the route each was built for), each under its module', async () => {
    const bundled = await Promise.all(
      Object.entries(toolHandlers).map(async ([module, load]) => {
        const { route } = (await load()).handler;
        expect(route.handler).toBe(module);
        return route;
      }),
    );
    const expected = toolRoutes.map((route) => routes[route.name]);
    expect(new Set(bundled).size).toBe(bundled.length);
    for (const route of expected) expect(bundled).toContain(route);
    expect(bundled).toHaveLength(expected.length);
  });
});
