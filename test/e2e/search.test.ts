/**
 * Search through the API on the local runtime (the embedded index fed by the stream poller):
 * what API.md "Search" promises, each change seen by polling until it shows (freshness), and the
 * bad inputs answered 400.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { newBlock, newMute } from '../../shared/domain/safety.js';
import { block, mute } from '../../shared/store/safety.js';
import { actor, ok, post, type Actor } from '../support/social.js';

/** A word nobody else's posts contain, so each test sees only its own posts on the shared server. */
const word = () => `w${randomBytes(5).toString('hex')}`;

const searchPosts = async (query: string, options: { token?: string; profileId?: string } = {}) =>
  ok(await call('GET', `/v1/search/posts?${query}`, options));
const searchProfiles = async (query: string) => ok(await call('GET', `/v1/search/profiles?${query}`));

const postIds = (page: { items: { post: { id: string } }[] }) => page.items.map((item) => item.post.id);

/** Reads until `check` passes (the index follows the table within 2 s); fails after 10 s. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`never settled: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

describe('post search', () => {
  it('finds a published post by its words, case and accents ignored, with hashtags on the post', async () => {
    const w = word();
    const created = await post(alice, { body: `Café meetup ${w} about #Serverless and #AWS` });
    expect(created.post.hashtags).toEqual(['serverless', 'aws']);
    const page = await eventually(
      () => searchPosts(`q=${encodeURIComponent(`CAFE ${w.toUpperCase()}`)}`),
      (p) => p.items.length === 1,
    );
    expect(page.items[0].post).toMatchObject({ id: created.post.id, hashtags: ['serverless', 'aws'] });
    expect(page.items[0].profile.id).toBe(alice.profile.id);
    expect(page.next_cursor).toBeNull();
  });

  it('follows edits and removals, and leaves drafts out', async () => {
    const [before, after] = [word(), word()];
    const created = await post(alice, { body: `first ${before}` });
    await post(alice, { body: `draft ${before}`, status: 'draft' });
    await eventually(
      () => searchPosts(`q=${before}`),
      (p) => p.items.length === 1,
    );
    ok(
      await call('PATCH', `/v1/posts/${created.post.id}`, {
        token: alice.key,
        profileId: alice.profile.id,
        body: { body: `edited ${after}` },
      }),
    );
    await eventually(
      () => searchPosts(`q=${after}`),
      (p) => postIds(p).includes(created.post.id),
    );
    expect((await searchPosts(`q=${before}`)).items).toEqual([]);
    ok(await call('DELETE', `/v1/posts/${created.post.id}`, { token: alice.key, profileId: alice.profile.id }));
    await eventually(
      () => searchPosts(`q=${after}`),
      (p) => p.items.length === 0,
    );
  });

  it('reads the grammar: phrases, exclusions, #tags (not the plain word) and from:', async () => {
    const w = word();
    const tag = `t${w}`;
    const a = await post(alice, { body: `${w} green energy storage #${tag}` });
    const b = await post(alice, { body: `${w} energy green storage` });
    const c = await post(bob, { body: `${w} mentions the word ${tag} without the hash` });
    await eventually(
      () => searchPosts(`q=${w}`),
      (p) => p.items.length === 3,
    );
    expect(postIds(await searchPosts(`q=${encodeURIComponent(`${w} "green energy"`)}`))).toEqual([a.post.id]);
    expect(postIds(await searchPosts(`q=${encodeURIComponent(`${w} -green`)}`))).toEqual([c.post.id]);
    expect(postIds(await searchPosts(`q=${encodeURIComponent(`#${tag.toUpperCase()}`)}`))).toEqual([a.post.id]);
    expect(postIds(await searchPosts(`hashtag=${tag}`))).toEqual([a.post.id]);
    expect(postIds(await searchPosts(`hashtag=${encodeURIComponent(`#${tag}`)}`))).toEqual([a.post.id]);
    expect(postIds(await searchPosts(`q=${encodeURIComponent(`${w} from:${bob.profile.username}`)}`))).toEqual([
      c.post.id,
    ]);
    // Newest first by default.
    expect(postIds(await searchPosts(`q=${w}`))).toEqual([c.post.id, b.post.id, a.post.id]);
  });

  it('filters by author, mentions, kind, media and time, and pages with a cursor', async () => {
    const w = word();
    const first = await post(alice, { body: `${w} one @${bob.profile.username}` });
    const reply = await post(bob, { body: `${w} two`, reply_to_post_id: first.post.id });
    const third = await post(alice, { body: `${w} three` });
    await eventually(
      () => searchPosts(`q=${w}`),
      (p) => p.items.length === 3,
    );
    expect(postIds(await searchPosts(`q=${w}&author_profile_id=${alice.profile.id}`))).toEqual([
      third.post.id,
      first.post.id,
    ]);
    expect(postIds(await searchPosts(`q=${w}&mentions_profile_id=${bob.profile.id}`))).toEqual([first.post.id]);
    expect(postIds(await searchPosts(`q=${w}&kind=reply`))).toEqual([reply.post.id]);
    expect(postIds(await searchPosts(`q=${w}&has_media=true`))).toEqual([]);
    expect(postIds(await searchPosts(`q=${w}&has_media=false`))).toHaveLength(3);
    const since = encodeURIComponent(reply.post.published_at);
    expect(postIds(await searchPosts(`q=${w}&since=${since}`))).toEqual([third.post.id, reply.post.id]);
    expect(postIds(await searchPosts(`q=${w}&until=${since}`))).toEqual([first.post.id]);

    const page1 = await searchPosts(`q=${w}&limit=2`);
    expect(postIds(page1)).toEqual([third.post.id, reply.post.id]);
    const page2 = await searchPosts(`q=${w}&limit=2&cursor=${page1.next_cursor}`);
    expect(postIds(page2)).toEqual([first.post.id]);
    expect(page2.next_cursor).toBeNull();
    // A cursor belongs to its own search.
    expectError(
      await call('GET', `/v1/search/posts?q=${word()}&limit=2&cursor=${page1.next_cursor}`),
      400,
      'invalid_request',
    );
  });

  it('sort=top ranks equally relevant posts by likes (as the post answers them)', async () => {
    const w = word();
    const plain = await post(alice, { body: `${w} plain` });
    const liked = await post(alice, { body: `${w} liked` });
    ok(
      await call('PUT', `/v1/posts/${plain.post.id}/reaction`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { reaction_type: 'like', active: true },
      }),
    );
    const top = await eventually(
      () => searchPosts(`q=${w}&sort=top`),
      (p) => p.items.length === 2 && p.items[0].post.likes_count === 1,
    );
    expect(postIds(top)).toEqual([plain.post.id, liked.post.id]);
  });

  it('answers 400 with a hint for what it cannot search', async () => {
    const none = expectError(await call('GET', '/v1/search/posts'), 400, 'invalid_request');
    expect(none.agent.hint).toContain('at least one of q, hashtag, author_profile_id or mentions_profile_id');
    expectError(await call('GET', `/v1/search/posts?q=${'x'.repeat(501)}`), 400, 'invalid_request');
    expectError(await call('GET', '/v1/search/posts?hashtag=2024'), 400, 'invalid_request');
    expectError(await call('GET', '/v1/search/posts?q=a&sort=best'), 400, 'invalid_request');
    expectError(await call('GET', '/v1/search/posts?q=a&since=yesterday'), 400, 'invalid_request');
    expectError(await call('GET', '/v1/search/posts?q=a&cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_request');
    expectError(
      await call('GET', `/v1/search/posts?author_profile_id=${randomUUID()}&extra=1`),
      400,
      'invalid_request',
    );
    expectError(await call('GET', '/v1/search/profiles'), 400, 'invalid_request');
    expectError(await call('GET', `/v1/search/profiles?q=${'x'.repeat(101)}`), 400, 'invalid_request');
    expectError(await call('GET', '/v1/search/profiles?q=a&country_code=FRA'), 400, 'invalid_request');
  });
});

describe('profile search', () => {
  it('matches prefixes of the words of username, name and call_name, accent- and case-insensitively', async () => {
    const user = await actor();
    const stem = word();
    const updated = ok(
      await call('PATCH', `/v1/profiles/${user.profile.id}`, {
        token: user.key,
        profileId: user.profile.id,
        body: { name: `Zoë ${stem}ström`, occupation: null, location: { country_code: 'SE' } },
      }),
    );
    expect(updated.name).toContain('Zoë');
    const found = await eventually(
      () => searchProfiles(`q=${encodeURIComponent(`zoe ${stem.slice(0, 6).toUpperCase()}`)}`),
      (p) => p.items.length === 1,
    );
    expect(found.items[0].profile.id).toBe(user.profile.id);
    expect((await searchProfiles(`q=${stem}strom&country_code=se`)).items).toHaveLength(1);
    expect((await searchProfiles(`q=${stem}strom&country_code=NO`)).items).toHaveLength(0);
    expect((await searchProfiles(`q=${stem}strom&type=company`)).items).toHaveLength(0);
  });

  it('puts the exact username first, then the prefix matches by followers, and pages', async () => {
    const [exact, popular, quiet] = await Promise.all([actor(), actor(), actor()]);
    const rename = (a: Actor, name: string) =>
      call('PATCH', `/v1/profiles/${a.profile.id}`, { token: a.key, profileId: a.profile.id, body: { name } });
    // Both others start with the exact one's username; popular gets a follower.
    ok(await rename(popular, `${exact.profile.username}x Popular`));
    ok(await rename(quiet, `${exact.profile.username}y Quiet`));
    ok(
      await call('POST', '/v1/profile-follows', {
        token: quiet.key,
        profileId: quiet.profile.id,
        body: { followed_profile_id: popular.profile.id },
      }),
      201,
    );
    const ids = (p: { items: { profile: { id: string } }[] }) => p.items.map((i) => i.profile.id);
    const order = [exact.profile.id, popular.profile.id, quiet.profile.id];
    await eventually(
      () => searchProfiles(`q=${exact.profile.username}`),
      (p) => JSON.stringify(ids(p)) === JSON.stringify(order),
    );
    const first = await searchProfiles(`q=${exact.profile.username}&limit=2`);
    expect(ids(first)).toEqual(order.slice(0, 2));
    const rest = await searchProfiles(`q=${exact.profile.username}&limit=2&cursor=${first.next_cursor}`);
    expect(ids(rest)).toEqual(order.slice(2));
    expect(rest.next_cursor).toBeNull();
  });

  it('finds a new profile by its username within seconds', async () => {
    const user = await actor();
    const found = await eventually(
      () => searchProfiles(`q=${user.profile.username}`),
      (p) => p.items.length === 1,
    );
    expect(found.items[0].profile).toMatchObject({ id: user.profile.id, username: user.profile.username });
  });
});

describe('blocks and mutes of the acting profile', () => {
  it('leave the blocked and muted profiles and their posts out, from the next request; anonymous search is unchanged', async () => {
    const [author, muter, blocked] = await Promise.all([actor(), actor(), actor()]);
    const w = word();
    const written = await post(author, { body: `${w} visible to some` });
    await eventually(
      () => searchPosts(`q=${w}`),
      (p) => p.items.length === 1,
    );
    await eventually(
      () => searchProfiles(`q=${author.profile.username}`),
      (p) => p.items.length === 1,
    );
    await mute(newMute(new Date(), muter.profile.id, author.profile.id));
    await block(newBlock(new Date(), author.profile.id, blocked.profile.id));
    for (const viewer of [muter, blocked]) {
      const as = { token: viewer.key, profileId: viewer.profile.id };
      expect((await searchPosts(`q=${w}`, as)).items, viewer.profile.username).toEqual([]);
      const profiles = ok(await call('GET', `/v1/search/profiles?q=${author.profile.username}`, as));
      expect(profiles.items).toEqual([]);
    }
    expect(postIds(await searchPosts(`q=${w}`))).toEqual([written.post.id]);
    expect(postIds(await searchPosts(`q=${w}`, { token: author.key, profileId: author.profile.id }))).toEqual([
      written.post.id,
    ]);
  });
});
