import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { newId, nowIso } from '../../shared/domain/ids.js';
import { defineRoute } from '../../shared/http/contract/route.js';
import { httpHandler } from '../../shared/http/handler.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { revokeApiKey } from '../../shared/store/api-keys.js';
import { batchGet } from '../../shared/store/batch.js';
import { db } from '../../shared/store/client.js';
import { getProfile } from '../../shared/store/profiles.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import { recordDynamoDbCalls, sequentialRoundTrips } from '../support/dynamodb-calls.js';
import { apiEvent, invoke } from '../support/events.js';
import { storedApiKey, storedProfile } from '../support/stored.js';

// A public read with viewer data, like the post read: the route reads ahead a profile named in its path.
const route = defineRoute({
  method: 'GET',
  path: '/test/profiles/{id}',
  handler: 'test/read',
  tag: 'Test',
  summary: 'read',
  auth: 'none',
  actingProfile: { required: false },
  params: z.strictObject({ id: z.uuid() }),
  status: 200,
  response: z.unknown(),
  errors: [],
});
let handlerRuns = 0;
const readAhead = ({ params }: PrefetchRequest<typeof route>, reads: ReadBatch) => getProfile(params.id, reads);
const read = httpHandler(
  route,
  async ({ auth, prefetched }) => {
    handlerRuns++;
    return { name: (await prefetched)?.name, acting: auth.actingProfile?.id };
  },
  { prefetch: readAhead },
);

let recorder: ReturnType<typeof recordDynamoDbCalls>;
/** The request's reads: the rate-limit window write runs beside them and is not one. */
const reads = () => recorder.calls.filter((c) => c.command !== 'UpdateItem');
beforeAll(() => {
  recorder = recordDynamoDbCalls(db());
});
beforeEach(() => {
  recorder.reset();
  handlerRuns = 0;
});

const request = (targetId: string, token?: string, profileId?: string) =>
  apiEvent({
    method: 'GET',
    pathParameters: { id: targetId },
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(profileId ? { 'x-profile-id': profileId } : {}),
    },
  });

describe('the per-request read batch', () => {
  it('reads the credential, the acting profile and the route key in ONE BatchGetItem, the safety sets beside it', async () => {
    const ws = newId();
    const [viewer, target] = [await storedProfile(ws), await storedProfile(ws, { name: 'Target' })];
    const { token } = await storedApiKey(ws, ['all:all'], [viewer.id]);
    recorder.reset();
    const result = await invoke(read, request(target.id, token, viewer.id));
    expect(result.body.data).toEqual({ name: 'Target', acting: viewer.id });
    // The acting profile's blocks and mutes: one Query of its safety partition, sent with the batch.
    expect(
      reads()
        .map((c) => c.command)
        .sort(),
    ).toEqual(['BatchGetItem', 'Query']);
    expect(sequentialRoundTrips(recorder.calls)).toBe(1);
  });

  it('reads no keys with no request (a page of nothing to join, e.g. no followers)', async () => {
    expect((await batchGet([], { consistent: true })).size).toBe(0);
    expect(recorder.calls).toEqual([]);
  });

  it('anonymous: only the route key, one request', async () => {
    const target = await storedProfile(newId(), { name: 'Public' });
    recorder.reset();
    expect((await invoke(read, request(target.id))).body.data).toEqual({ name: 'Public' });
    expect(reads().map((c) => c.command)).toEqual(['BatchGetItem']);
    expect(sequentialRoundTrips(recorder.calls)).toBe(1);
  });

  it('caches nothing across requests: a key revoked after a successful request is refused on the next', async () => {
    const ws = newId();
    const viewer = await storedProfile(ws);
    const key = await storedApiKey(ws, ['all:all'], [viewer.id]);
    expect((await invoke(read, request(viewer.id, key.token, viewer.id))).status).toBe(200);
    await revokeApiKey(key.id, ws, nowIso());
    expect(await invoke(read, request(viewer.id, key.token, viewer.id))).toMatchObject({
      status: 401,
      body: { error_code: 'unauthorized' },
    });
  });

  it('what was read ahead never reaches a caller who fails authentication or the acting-profile check', async () => {
    const ws = newId();
    const [viewer, stranger] = [await storedProfile(ws), await storedProfile(newId())];
    const { token } = await storedApiKey(ws, ['all:all'], [viewer.id]);
    expect((await invoke(read, request(viewer.id, `${token}x`))).status).toBe(401);
    expect(await invoke(read, request(viewer.id, token, stranger.id))).toMatchObject({
      status: 403,
      body: { error_code: 'profile_not_permitted' },
    });
    expect(handlerRuns).toBe(0);
  });
});
