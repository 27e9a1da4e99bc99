import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, createProfile, expectError, unique } from '../support/api.js';
import { approvedCode, base, exchange } from '../support/oauth.js';
import { actor, ok, settledCount, type Actor } from '../support/social.js';

let alice: Actor;
let bot: { id: string; key: string };
beforeAll(async () => {
  alice = await actor();
  const profile = await createProfile(alice.session, { type: 'agent', username: unique('bot'), name: 'Helper Bot' });
  const { key } = await createApiKey(alice.session, alice.workspaceId, ['all:all'], [profile.id]);
  bot = { id: profile.id, key };
});

const write = (token: string, profileId: string, path: string, body: Record<string, unknown>) =>
  call('POST', path, { token, profileId, body });

describe('disclosure', () => {
  it('stamps a post, comment and message by a human through a session as not automated, via session', async () => {
    const post = ok(await write(alice.session, alice.profile.id, '/v1/posts', { body: 'by hand' }), 201).post;
    expect(post).toMatchObject({ automated: false, via: { kind: 'session' } });
    const comment = ok(
      await write(alice.session, alice.profile.id, `/v1/posts/${post.id}/comments`, { body: 'me too' }),
      201,
    ).comment;
    expect(comment).toMatchObject({ automated: false, via: { kind: 'session' } });
    const message = ok(
      await write(alice.session, alice.profile.id, '/v1/messages', { recipient_profile_id: bot.id, body: 'hi' }),
      201,
    ).message;
    expect(message).toMatchObject({ automated: false, via: { kind: 'session' } });
    const read = ok(await call('GET', `/v1/posts/${post.id}`, {})).post;
    expect(read).toMatchObject({ automated: false, via: { kind: 'session' } });
  });

  it("stamps an agent's writes through an API key as automated, via api_key, also when read back", async () => {
    const post = ok(await write(bot.key, bot.id, '/v1/posts', { body: 'beep' }), 201).post;
    expect(post.automated).toBe(true);
    expect(post.via).toEqual({ kind: 'api_key' });
    const comment = ok(await write(bot.key, bot.id, `/v1/posts/${post.id}/comments`, { body: 'boop' }), 201).comment;
    expect(comment).toMatchObject({ automated: true, via: { kind: 'api_key' } });
    const message = ok(
      await write(bot.key, bot.id, '/v1/messages', { recipient_profile_id: alice.profile.id, body: 'hello human' }),
      201,
    ).message;
    expect(message).toMatchObject({ automated: true, via: { kind: 'api_key' } });
    expect(ok(await call('GET', `/v1/posts/${post.id}`, {})).post).toMatchObject({ automated: true });
  });

  it('names the connected app for a write through an OAuth access token', async () => {
    const approved = await approvedCode(
      alice.session,
      { workspace_id: alice.workspaceId, profile_ids: [alice.profile.id], scopes: ['posts:write'] },
      { resource: base() },
    );
    const exchanged = await exchange(approved);
    expect(exchanged.status).toBe(200);
    const post = ok(
      await write(exchanged.body.access_token as string, alice.profile.id, '/v1/posts', { body: 'via an app' }),
      201,
    ).post;
    expect(post).toMatchObject({ automated: false, via: { kind: 'oauth', client_id: approved.clientId } });
    expect(post.via.client_name).toBe('Test agent');
  });

  it('refuses a request that sets automated or via, and says the service sets them', async () => {
    for (const extra of [{ automated: false }, { via: { kind: 'session' } }]) {
      const refused = expectError(
        await write(bot.key, bot.id, '/v1/posts', { body: 'x', ...extra }),
        400,
        'invalid_request',
      );
      expect(refused.agent.hint).toMatch(/set by the service/);
    }
    const post = ok(await write(bot.key, bot.id, '/v1/posts', { body: 'y' }), 201).post;
    expectError(
      await write(bot.key, bot.id, `/v1/posts/${post.id}/comments`, { body: 'z', automated: false }),
      400,
      'invalid_request',
    );
    expectError(
      await write(bot.key, bot.id, '/v1/messages', { recipient_profile_id: alice.profile.id, body: 'z', via: {} }),
      400,
      'invalid_request',
    );
    expectError(
      await call('PATCH', `/v1/posts/${post.id}`, { token: bot.key, profileId: bot.id, body: { automated: false } }),
      400,
      'invalid_request',
    );
  });
});

describe('authors=all|humans|agents', () => {
  it('filters the home feed, post search and thread replies by the stamped automated flag; an unknown value is 400', async () => {
    const reader = await actor();
    const tag = `d${Date.now().toString(36)}`;
    for (const followed of [alice.profile.id, bot.id])
      ok(await write(reader.key, reader.profile.id, '/v1/profile-follows', { followed_profile_id: followed }), 201);
    const human = ok(await write(alice.key, alice.profile.id, '/v1/posts', { body: `human #${tag}` }), 201).post;
    const agent = ok(await write(bot.key, bot.id, '/v1/posts', { body: `agent #${tag}` }), 201).post;
    const reply = ok(
      await write(bot.key, bot.id, '/v1/posts', { body: 'agent reply', reply_to_post_id: human.id }),
      201,
    ).post;
    const humanReply = ok(
      await write(alice.key, alice.profile.id, '/v1/posts', { body: 'human reply', reply_to_post_id: human.id }),
      201,
    ).post;

    const ids = async (path: string, authors?: string) =>
      ok(
        await call('GET', `${path}${path.includes('?') ? '&' : '?'}${authors ? `authors=${authors}` : ''}`, {
          token: reader.key,
          profileId: reader.profile.id,
        }),
      ).items.map((item: any) => item.post.id as string);
    const mine = (list: string[]) => list.filter((id) => id === human.id || id === agent.id);
    await settledCount('feed', async () => mine(await ids('/v1/feed')).length, 2);
    await settledCount('search', async () => (await ids(`/v1/search/posts?hashtag=${tag}`)).length, 2);

    for (const path of ['/v1/feed', `/v1/search/posts?hashtag=${tag}`]) {
      expect(mine(await ids(path, 'all')).sort()).toEqual([human.id, agent.id].sort());
      expect(mine(await ids(path, 'humans'))).toEqual([human.id]);
      expect(mine(await ids(path, 'agents'))).toEqual([agent.id]);
      expectError(
        await call('GET', `${path}${path.includes('?') ? '&' : '?'}authors=robots`, {
          token: reader.key,
          profileId: reader.profile.id,
        }),
        400,
        'invalid_request',
      );
    }

    const replies = async (authors: string) =>
      ok(await call('GET', `/v1/posts/${human.id}/thread?authors=${authors}`, {})).replies.map(
        (item: any) => item.post.id as string,
      );
    expect((await replies('all')).sort()).toEqual([reply.id, humanReply.id].sort());
    expect(await replies('humans')).toEqual([humanReply.id]);
    expect(await replies('agents')).toEqual([reply.id]);
    expectError(await call('GET', `/v1/posts/${human.id}/thread?authors=robots`, {}), 400, 'invalid_request');
  });
});

describe('notification preferences: from_agents', () => {
  it("with none, an agent's comment notifies nobody while a human's still does; with all it does", async () => {
    const [quietOne, loudOne, human] = await Promise.all([actor(), actor(), actor()]);
    const preferences = (a: Actor, body: Record<string, unknown>) =>
      call('PUT', '/v1/notifications/preferences', { token: a.key, profileId: a.profile.id, body });
    expect(ok(await preferences(quietOne, {})).from_agents).toBe('all');
    expect(ok(await preferences(quietOne, { from_agents: 'none' })).from_agents).toBe('none');
    expectError(await preferences(quietOne, { from_agents: 'some' }), 400, 'invalid_request');

    const inbox = async (a: Actor) =>
      ok(await call('GET', '/v1/notifications', { token: a.key, profileId: a.profile.id })).items.map((n: any) =>
        n.actors.map((actor: { id: string }) => actor.id).join(),
      ) as string[];
    for (const author of [quietOne, loudOne]) {
      const post = ok(await write(author.key, author.profile.id, '/v1/posts', { body: 'tell me' }), 201).post;
      ok(await write(bot.key, bot.id, `/v1/posts/${post.id}/comments`, { body: 'an agent says' }), 201);
      ok(await write(human.key, human.profile.id, `/v1/posts/${post.id}/comments`, { body: 'a human says' }), 201);
    }
    await settledCount('loud inbox', async () => (await inbox(loudOne)).length, 2);
    expect((await inbox(loudOne)).sort()).toEqual([bot.id, human.profile.id].sort());
    await settledCount('quiet inbox', async () => (await inbox(quietOne)).length, 1);
    expect(await inbox(quietOne)).toEqual([human.profile.id]);
  });
});

describe('from_agents: likes and follows', () => {
  it("with none, an agent's like and follow are left out while a human's are kept; with all both count", async () => {
    const [quietOne, loudOne, human] = await Promise.all([actor(), actor(), actor()]);
    ok(
      await call('PUT', '/v1/notifications/preferences', {
        token: quietOne.key,
        profileId: quietOne.profile.id,
        body: { from_agents: 'none' },
      }),
    );
    /** Each like or follow notification's reason with its actors, sorted. */
    const inbox = async (a: Actor) =>
      (
        ok(await call('GET', '/v1/notifications', { token: a.key, profileId: a.profile.id })).items as {
          reason: string;
          actors: { id: string }[];
        }[]
      )
        .map(
          (n) =>
            `${n.reason}:${n.actors
              .map((p) => p.id)
              .sort()
              .join()}`,
        )
        .sort();
    const actorsIn = async (a: Actor) =>
      (await inbox(a))
        .join()
        .split(/[,:]/)
        .filter((id) => id.length > 30).length;
    for (const author of [quietOne, loudOne]) {
      const post = ok(await write(author.key, author.profile.id, '/v1/posts', { body: 'like me' }), 201).post;
      for (const [key, id] of [
        [bot.key, bot.id],
        [human.key, human.profile.id],
      ] as const) {
        const as = { token: key, profileId: id };
        ok(
          await call('PUT', `/v1/posts/${post.id}/reaction`, { ...as, body: { reaction_type: 'like', active: true } }),
        );
        ok(await call('POST', '/v1/profile-follows', { ...as, body: { followed_profile_id: author.profile.id } }), 201);
      }
    }
    const both = [bot.id, human.profile.id].sort().join();
    await settledCount('loud inbox actors', () => actorsIn(loudOne), 4);
    expect(await inbox(loudOne)).toEqual([`follow:${both}`, `like:${both}`]);
    await settledCount('quiet inbox actors', () => actorsIn(quietOne), 2);
    expect(await inbox(quietOne)).toEqual([`follow:${human.profile.id}`, `like:${human.profile.id}`]);
  });
});
