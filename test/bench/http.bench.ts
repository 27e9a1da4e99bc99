/**
 * `npm run bench` (HTTP part): autocannon against the local server for the public post read, the
 * comment list and the reaction write, and beside each the same DynamoDB work done by the store
 * functions on a bare @aws-sdk/lib-dynamodb client in a loop, so our overhead over the database
 * is visible as a ratio. DynamoDB Local is the floor of local speed (see DESIGN.md).
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { keys } from '../../shared/store/keys.js';
import { nowIso } from '../../shared/domain/ids.js';
import { loop, printTable, startStack, type LoopResult } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PROFILES = 10;

async function api(base: string, method: string, path: string, body?: unknown, token?: string, profileId?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(profileId ? { 'x-profile-id': profileId } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as { ok: boolean; data: any };
  if (!json.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json.data;
}

async function seed(base: string) {
  const email = `bench${Date.now()}@example.com`;
  const { workspace } = await api(base, 'POST', '/v1/users', { email, password: 'bench password', name: 'Bench' });
  const { session } = await api(base, 'POST', '/v1/sessions', { email, password: 'bench password' });
  const profiles: string[] = [];
  for (let i = 0; i < PROFILES; i++) {
    const profile = await api(base, 'POST', '/v1/profiles', { type: 'agent', username: `bench_${i}_${Date.now() % 100000}`, name: `Bench ${i}`, call_name: 'B' }, session.token);
    profiles.push(profile.id);
  }
  const { key } = await api(base, 'POST', `/v1/workspaces/${workspace.id}/api-keys`, { name: 'bench', scopes: ['all:all'], profile_ids: profiles }, session.token);
  const { post } = await api(base, 'POST', '/v1/posts', { body: 'A post to read, comment on and like. '.repeat(10) }, key, profiles[0]);
  for (let i = 0; i < 20; i++) {
    await api(base, 'POST', `/v1/posts/${post.id}/comments`, { body: `Comment ${i}` }, key, profiles[i % PROFILES]);
  }
  return { key, profiles, postId: post.id as string };
}

function cannon(url: string, options: Partial<autocannon.Options>): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function main() {
  const stack = await startStack();
  try {
    const base = stack.server.baseUrl;
    const { key, profiles, postId } = await seed(base);

    // Imported after startStack set DYNAMODB_ENDPOINT/TABLE_NAME for the store's client.
    const { getPostWithReaction } = await import('../../shared/store/posts.js');
    const { getPost } = await import('../../shared/store/posts.js');
    const { listComments } = await import('../../shared/store/comments.js');
    const { getProfile, getProfiles } = await import('../../shared/store/profiles.js');
    const { setReaction } = await import('../../shared/store/reactions.js');

    const reactionRequests = profiles.flatMap((profileId) =>
      [true, false].map((active) => ({
        method: 'PUT' as const,
        path: `/v1/posts/${postId}/reaction`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-profile-id': profileId },
        body: JSON.stringify({ reaction_type: 'like', active }),
      })),
    );

    const cases: { name: string; http: () => Promise<autocannon.Result>; db: () => Promise<LoopResult>; dbWork: string }[] = [
      {
        name: 'GET /v1/posts/{id}',
        http: () => cannon(`${base}/v1/posts/${postId}`, {}),
        db: () =>
          loop(async () => {
            const { post } = await getPostWithReaction(postId, undefined);
            await getProfile(post!.profile_id);
          }, CONNECTIONS, SECONDS),
        dbWork: 'BatchGet(post) + Get(author)',
      },
      {
        name: 'GET /v1/posts/{id}/comments',
        http: () => cannon(`${base}/v1/posts/${postId}/comments`, {}),
        db: () =>
          loop(async () => {
            const [, page] = await Promise.all([getPost(postId), listComments(postId, { limit: 20 })]);
            await getProfiles(page.items.map((c) => c.profile_id));
          }, CONNECTIONS, SECONDS),
        dbWork: 'Get(post) ‖ Query(20) + BatchGet(authors)',
      },
      {
        name: 'PUT /v1/posts/{id}/reaction',
        http: () => cannon(`${base}/v1/posts/${postId}/reaction`, { requests: reactionRequests }),
        db: () =>
          loop(async (i) => {
            const profileId = profiles[i % PROFILES]!;
            await setReaction(
              { key: keys.post(postId), counter: 'likes_count' },
              keys.postReaction(postId, profileId),
              { profile_id: profileId, reaction_type: 'like', created_at: nowIso() },
              Math.floor(i / PROFILES) % 2 === 0,
            );
          }, CONNECTIONS, SECONDS),
        dbWork: 'TransactWrite(reaction + counter)',
      },
    ];

    const rows: (string | number)[][] = [];
    for (const c of cases) {
      const http = await c.http();
      const db = await c.db();
      const non2xx = http.non2xx + http.errors;
      rows.push([c.name, http.requests.average, http.latency.p50, http.latency.p99, non2xx, c.dbWork, db.perSecond, db.p50, db.p99, db.perSecond / http.requests.average]);
    }
    printTable(
      `HTTP API vs. the same DynamoDB work (${CONNECTIONS} connections, ${SECONDS} s each; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version})`,
      ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'DynamoDB work', 'db ops/s', 'db p50', 'db p99', 'db/http'],
      rows,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
