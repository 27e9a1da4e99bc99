/**
 * A rate-limited tool call, on a server of its own with a small per-credential limit (and its own
 * table): the route's limit answers, and the tool error says when to retry.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { call, unique } from '../support/api.js';
import { connectMcp, toolData, toolError } from '../support/mcp.js';

const CREDENTIAL_LIMIT = 4;
let server: LocalServer;

beforeAll(async () => {
  const tableName = 'social-network-mcp-rate-limits-test';
  await ensureTable(inject('dynamodbEndpoint'), tableName);
  server = await startLocalServer({
    DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
    TABLE_NAME: tableName,
    PASSWORD_SCRYPT_LOG2_N: '12',
    ...GENEROUS_RATE_LIMITS,
    RATE_LIMIT_CREDENTIAL: `${CREDENTIAL_LIMIT}/86400`,
  });
});
afterAll(async () => {
  await server?.stop();
});

/** A user, a profile and an all:all key on the dedicated server (the session's own calls count on the session). */
async function keyOnServer() {
  const baseUrl = server.baseUrl;
  const email = `${unique('mcp')}@example.com`;
  const password = 'long enough pw';
  const user = await call('POST', '/v1/users', { baseUrl, body: { email, password, name: 'Mo' } });
  const session = await call('POST', '/v1/sessions', { baseUrl, body: { email, password } });
  const token = session.body.data.session.token as string;
  const profile = await call('POST', '/v1/profiles', {
    baseUrl,
    token,
    body: { type: 'agent', username: unique('bot'), name: 'Bot', call_name: 'Bot' },
  });
  const key = await call('POST', `/v1/workspaces/${user.body.data.workspace.id}/api-keys`, {
    baseUrl,
    token,
    body: { name: 'mcp', scopes: ['all:all'], profile_ids: [profile.body.data.id] },
  });
  return { key: key.body.data.key as string, profileId: profile.body.data.id as string };
}

describe('a rate-limited tool call', () => {
  it('is a tool error with rate_limited and retry_after_seconds, after the credential’s budget is spent', async () => {
    const { key, profileId } = await keyOnServer();
    const mcp = await connectMcp('client 2.x (2026-07-28)', {
      key,
      baseUrl: server.baseUrl,
      query: 'toolsets=profiles',
    });
    try {
      for (let i = 0; i < CREDENTIAL_LIMIT; i++) toolData(await mcp.callTool('get_profile', { profile_id: profileId }));
      const limited = toolError(await mcp.callTool('get_profile', { profile_id: profileId }));
      expect(limited).toMatchObject({ error_code: 'rate_limited', hint: expect.stringContaining('Retry-After') });
      expect(limited.retry_after_seconds).toBeGreaterThan(0);
      expect(limited.retry_after_seconds).toBeLessThanOrEqual(86_400);
    } finally {
      await mcp.close();
    }
  });
});
