import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, unique } from '../support/api.js';
import { actor, ok, type Actor } from '../support/social.js';
import { readyMedia } from '../support/uploads.js';

let alice: Actor;
beforeAll(async () => {
  alice = await actor();
});

const RLO = '\u202e'; // right-to-left override
const INVISIBLES = [RLO, '\u2066', '\u200b', '\ufeff', '\u0007', '\u2028'];

describe('bad input', () => {
  it('refuses bidi overrides and other invisible control characters in names and usernames, without echoing them', async () => {
    for (const invisible of INVISIBLES) {
      const name = `Ann${invisible}fdp.exe`;
      const profile = expectError(
        await call('POST', '/v1/profiles', {
          token: alice.session,
          body: { type: 'human', username: unique('bidi'), name, call_name: 'Ann' },
        }),
        400,
        'invalid_request',
      );
      expect(profile.agent.hint).toContain('body.name');
      expect(JSON.stringify(profile)).not.toContain('fdp');
      expectError(
        await call('PATCH', `/v1/profiles/${alice.profile.id}`, {
          token: alice.session,
          body: { call_name: `A${invisible}nn` },
        }),
        400,
        'invalid_request',
      );
      expectError(
        await call('POST', '/v1/users', {
          body: { email: `${unique('bidi')}@example.com`, password: 'long enough pw', name },
        }),
        400,
        'invalid_request',
      );
      expectError(
        await call('POST', '/v1/workspaces', { token: alice.session, body: { name } }),
        400,
        'invalid_request',
      );
    }
    expectError(
      await call('POST', '/v1/profiles', {
        token: alice.session,
        body: { type: 'human', username: `ann${RLO}xe`, name: 'Ann', call_name: 'Ann' },
      }),
      400,
      'invalid_request',
    );
    // Joiners stay allowed: emoji sequences and some scripts need them.
    const family = ok(
      await call('POST', '/v1/profiles', {
        token: alice.session,
        body: { type: 'human', username: unique('zwj'), name: 'Family 👨\u200d👩\u200d👧', call_name: 'می\u200cخواهم' },
      }),
      201,
    );
    expect(family.name).toBe('Family 👨\u200d👩\u200d👧');
  });

  it('answers forged cursors with 400 invalid_request, also when they keep the right partition', async () => {
    for (let i = 0; i < 3; i++)
      ok(
        await call('POST', '/v1/posts', { token: alice.key, profileId: alice.profile.id, body: { body: `page ${i}` } }),
        201,
      );
    const list = `/v1/profiles/${alice.profile.id}/posts`;
    const first = ok(await call('GET', `${list}?limit=1`));
    const key = JSON.parse(Buffer.from(first.next_cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(Object.keys(key).sort()).toEqual(['gsi1pk', 'gsi1sk', 'pk', 'sk']);
    const encode = (forged: unknown) => Buffer.from(JSON.stringify(forged)).toString('base64url');
    const { pk: _pk, ...withoutTableKey } = key;
    const forgeries = [
      withoutTableKey, // the partition is right, the table key is missing
      { gsi1pk: key.gsi1pk }, // the partition alone
      { ...key, sk: 42 }, // a number where the key is a string
      { ...key, status: 'published' }, // an attribute that is no key
      { ...key, gsi2pk: 'PROFILE#x#FOLLOWING' }, // another index's key
      [key],
    ];
    for (const forged of forgeries) {
      const refused = expectError(
        await call('GET', `${list}?limit=1&cursor=${encode(forged)}`),
        400,
        'invalid_request',
      );
      expect(refused.agent.hint).toContain('next_cursor');
    }
    // The genuine cursor still pages on.
    expect(ok(await call('GET', `${list}?limit=1&cursor=${first.next_cursor}`)).items).toHaveLength(1);
  });

  it('accepts alt_text: null on a post image, as the spec allows', async () => {
    const media = await readyMedia(alice, 'post_image');
    const created = ok(
      await call('POST', '/v1/posts', {
        token: alice.key,
        profileId: alice.profile.id,
        body: { body: 'chart', images: [{ media_id: media.id, alt_text: null }] },
      }),
      201,
    );
    expect(created.post.images[0].alt_text).toBeNull();
  });
});
