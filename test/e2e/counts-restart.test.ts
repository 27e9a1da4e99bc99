import { afterAll, describe, expect, inject, it } from 'vitest';
import { call, unique } from '../support/api.js';
import { TEST_SERVER_SETTINGS } from '../support/global-setup.js';
import { settledCount } from '../support/social.js';
import { workspaceWithProfiles } from '../support/webhooks.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';

const servers: LocalServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function kill(server: LocalServer) {
  server.process.kill('SIGKILL');
  servers.splice(servers.indexOf(server), 1);
  await new Promise<void>((done) =>
    server.process.exitCode !== null || server.process.signalCode !== null
      ? done()
      : server.process.once('exit', () => done()),
  );
}

describe('restarting the local server in the middle of likes', () => {
  it('counts every like exactly once: the folds the killed process did not checkpoint are replayed, not doubled', async () => {
    // A table of its own, shared by both server processes (as `npm start` twice on the same .data).
    const env = {
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      TABLE_NAME: unique('counts_restart'),
      ...TEST_SERVER_SETTINGS,
    };
    const first = await startLocalServer(env);
    servers.push(first);
    const ws = await workspaceWithProfiles(24, first.baseUrl);
    const { key } = (
      await call('POST', `/v1/workspaces/${ws.workspace.id}/api-keys`, {
        baseUrl: first.baseUrl,
        token: ws.token,
        body: { name: 'likes', scopes: ['posts:write'], profile_ids: ws.profiles.map((p) => p.id) },
      })
    ).body.data as { key: string };
    const author = ws.profiles[0]!.id;
    const created = await call('POST', '/v1/posts', {
      baseUrl: first.baseUrl,
      token: key,
      profileId: author,
      body: { body: 'liked across a restart' },
    });
    const postId = created.body.data.post.id as string;
    const like = (baseUrl: string, profileId: string) =>
      call('PUT', `/v1/posts/${postId}/reaction`, {
        baseUrl,
        token: key,
        profileId,
        body: { reaction_type: 'like', active: true },
      });

    // 16 likes at once, and the process killed as soon as they are answered: their folds and
    // checkpoints are cut off wherever they were.
    const before = await Promise.all(ws.profiles.slice(0, 16).map((p) => like(first.baseUrl, p.id)));
    for (const response of before) expect(response.status).toBe(200);
    await kill(first);

    const second = await startLocalServer(env);
    servers.push(second);
    const after = await Promise.all(ws.profiles.slice(16).map((p) => like(second.baseUrl, p.id)));
    for (const response of after) expect(response.status).toBe(200);
    const likes = async () =>
      (await call('GET', `/v1/posts/${postId}`, { baseUrl: second.baseUrl })).body.data.post.likes_count as number;
    expect(await settledCount('likes after the restart', likes, 24, 40_000)).toBe(24);
  }, 120_000); // two server starts on 2 cores
});
