/** The MCP tool `wait_for_events` (API.md "Live"): an agent waits for its profile's events instead of polling. */
import { afterEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../support/live.js';
import { connectMcp, toolData, toolError, type McpConnection } from '../support/mcp.js';
import { actor } from '../support/social.js';

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe('wait_for_events', () => {
  it('holds the call until an event comes, then answers it with the next after', async () => {
    const [agent, other] = await Promise.all([actor(), actor()]);
    const mcp = await connectMcp('client 2.x (2026-07-28)', { key: agent.key, query: 'toolsets=notifications' });
    open.push(mcp);
    const tools = (await mcp.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('wait_for_events');

    const waiting = mcp.callTool('wait_for_events', { profile_id: agent.profile.id, timeout_seconds: 20 });
    await new Promise((r) => setTimeout(r, 300));
    await sendMessage(other, agent, 'are you there?');
    const first = toolData(await waiting);
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ type: 'message.created', data: { message: { body: 'are you there?' } } });
    expect(first.next_after).toBe(first.events[0].id);

    const none = toolData(
      await mcp.callTool('wait_for_events', {
        profile_id: agent.profile.id,
        after: first.next_after,
        timeout_seconds: 1,
      }),
    );
    expect(none).toEqual({ events: [], next_after: first.next_after });

    const tooLong = toolError(
      await mcp.callTool('wait_for_events', { profile_id: agent.profile.id, timeout_seconds: 60 }),
    );
    expect(tooLong.error_code).toBe('invalid_request');
  }, 40_000);
});
