/** A small follow graph over HTTP for the feed tests: profiles of one workspace, one API key acting as each. */
import { call, type ApiResponse } from './api.js';
import { ok } from './social.js';
import { workspaceWithProfiles } from './webhooks.js';

export interface Person {
  id: string;
  username: string;
}

export interface Network {
  people: Person[];
  key: string;
  baseUrl: string | undefined;
  /** The workspace's owner session, for more keys. */
  owner: { token: string; workspaceId: string };
}

/** `count` profiles in one new workspace and an API key (all scopes) that may act as each. */
export async function network(count: number, baseUrl?: string): Promise<Network> {
  const ws = await workspaceWithProfiles(count, baseUrl);
  const people = ws.profiles.map((p) => ({ id: p.id, username: p.username }));
  const created = await call('POST', `/v1/workspaces/${ws.workspace.id}/api-keys`, {
    baseUrl,
    token: ws.token,
    body: { name: 'feed test', scopes: ['all:all'], profile_ids: people.map((p) => p.id) },
  });
  return {
    people,
    key: ok<{ key: string }>(created, 201).key,
    baseUrl,
    owner: { token: ws.token, workspaceId: ws.workspace.id },
  };
}

export const as = (net: Network, person: Person) => ({ baseUrl: net.baseUrl, token: net.key, profileId: person.id });

export async function follow(net: Network, reader: Person, author: Person): Promise<void> {
  ok(await call('POST', '/v1/profile-follows', { ...as(net, reader), body: { followed_profile_id: author.id } }), 201);
}

export async function unfollow(net: Network, reader: Person, author: Person): Promise<void> {
  ok(await call('DELETE', '/v1/profile-follows', { ...as(net, reader), body: { followed_profile_id: author.id } }));
}

/** Publishes (or saves as a draft) a post, or a reply; returns the post. */
export async function publish(
  net: Network,
  author: Person,
  body: Record<string, unknown>,
): Promise<{ id: string; [field: string]: unknown }> {
  return ok<{ post: { id: string } }>(await call('POST', '/v1/posts', { ...as(net, author), body }), 201).post;
}

export interface FeedPage {
  items: { post: { id: string; profile_id: string; viewer_reaction: string | null }; profile: { id: string } }[];
  next_cursor: string | null;
}

export function readFeed(net: Network, reader: Person, query = ''): Promise<ApiResponse<FeedPage>> {
  return call<FeedPage>('GET', `/v1/feed${query}`, as(net, reader));
}

/** The ids of the reader's first feed page (of up to 100). */
export async function feedIds(net: Network, reader: Person): Promise<string[]> {
  return ok(await readFeed(net, reader, '?limit=100')).items.map((item) => item.post.id);
}

/** Reads the feed every 100 ms until `done` holds; the ids and how long it took, or a timeout naming what was last seen. */
export async function feedUntil(
  net: Network,
  reader: Person,
  done: (ids: string[]) => boolean,
  timeoutMs: number,
): Promise<{ ids: string[]; ms: number }> {
  const started = Date.now();
  for (;;) {
    const ids = await feedIds(net, reader);
    if (done(ids)) return { ids, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs)
      throw new Error(`feed not as expected after ${timeoutMs} ms: ${JSON.stringify(ids)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
