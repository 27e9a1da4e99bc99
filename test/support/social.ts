import { call, createApiKey, createProfile, signUp, unique, type ApiResponse } from './api.js';

/** A signed-up user with one profile and an API key (all scopes unless told) attached to it. */
export async function actor(scopes: string[] = ['all:all']) {
  const user = await signUp();
  const profile = await createProfile(user.token, { username: unique('u') });
  const { key } = await createApiKey(user.token, user.workspace.id, scopes, [profile.id]);
  return { user, profile, key, session: user.token, workspaceId: user.workspace.id };
}
export type Actor = Awaited<ReturnType<typeof actor>>;

/** Asserts a 2xx with the success envelope and returns data. */
export function ok<T = any>(response: ApiResponse<T>, status = 200): T {
  if (response.status !== status || response.body.ok !== true) {
    throw new Error(`expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
}

/** `a` follows `b`. */
export const follow = async (a: Actor, b: Actor) =>
  ok(
    await call('POST', '/v1/profile-follows', {
      token: a.key,
      profileId: a.profile.id,
      body: { followed_profile_id: b.profile.id },
    }),
    201,
  );

export async function post(a: Actor, body: Record<string, unknown>) {
  return ok(await call('POST', '/v1/posts', { token: a.key, profileId: a.profile.id, body }), 201);
}

/**
 * Reads a count until it shows `expected` and still does a moment later: counts folded from the
 * table stream (likes_count, reactions_count, followers_count) lag the writes behind them.
 */
export async function settledCount(what: string, read: () => Promise<number>, expected: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (last !== expected) {
    if (Date.now() > deadline) throw new Error(`${what}: expected ${expected}, still ${last} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  await new Promise((r) => setTimeout(r, 300));
  return read();
}
