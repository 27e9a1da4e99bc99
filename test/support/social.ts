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

export async function post(a: Actor, body: Record<string, unknown>) {
  return ok(await call('POST', '/v1/posts', { token: a.key, profileId: a.profile.id, body }), 201);
}
