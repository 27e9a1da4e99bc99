/**
 * Avatars and banners over HTTP, with media uploaded and processed as a client does it: setting
 * and removing each slot variant, what is attached and released, each refusal, and the author
 * card on posts.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { actor, ok, post, type Actor } from '../support/social.js';
import { isReleaseExpiry, mediaExpiry, readyMedia, solidImage, startMedia } from '../support/uploads.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const path = (a: Actor, slot: string, variant: string) => `/v1/profiles/${a.profile.id}/media/${slot}/${variant}`;
const put = (a: Actor, slot: string, variant: string, mediaId: string, token = a.key) =>
  call('PUT', path(a, slot, variant), { token, body: { media_id: mediaId } });
const remove = (a: Actor, slot: string, variant: string, token = a.key) =>
  call('DELETE', path(a, slot, variant), { token });

describe('profile media', () => {
  it("sets an avatar: the profile shows the media's urls, the files are there, the media is attached", async () => {
    const carol = await actor();
    const avatar = await readyMedia(carol, 'avatar', await solidImage(640, 480));
    const profile = ok(await put(carol, 'avatar', 'light', avatar.id));
    expect(profile.id).toBe(carol.profile.id);
    expect(profile.media).toEqual({ avatar: { light: avatar.urls }, banner: {} });
    expect(profile).not.toHaveProperty('media_ids');
    expect(Date.parse(profile.updated_at)).toBeGreaterThan(Date.parse(carol.profile.updated_at as string));
    expect(ok(await call('GET', `/v1/profiles/${carol.profile.id}`)).media.avatar.light).toEqual(avatar.urls);
    expect(await mediaExpiry(avatar.id)).toBeUndefined();

    const small = await fetch(avatar.urls.small_url);
    expect(small.status).toBe(200);
    const meta = await sharp(Buffer.from(await small.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([128, 128]);

    // a banner in its own slot, by the session as well
    const banner = await readyMedia(carol, 'banner');
    const both = ok(await put(carol, 'banner', 'dark', banner.id, carol.session));
    expect(both.media).toEqual({ avatar: { light: avatar.urls }, banner: { dark: banner.urls } });
  });

  it('replacing releases the old media (30 days), unless the other variant still shows it', async () => {
    const carol = await actor();
    const [first, second, third] = await Promise.all([
      readyMedia(carol, 'avatar'),
      readyMedia(carol, 'avatar'),
      readyMedia(carol, 'avatar'),
    ]);
    ok(await put(carol, 'avatar', 'light', first.id));
    ok(await put(carol, 'avatar', 'dark', first.id));
    // light moves on; dark still shows the first media, so it stays attached
    ok(await put(carol, 'avatar', 'light', second.id));
    expect(await mediaExpiry(first.id)).toBeUndefined();
    // setting the same media again changes nothing
    ok(await put(carol, 'avatar', 'light', second.id));
    expect(await mediaExpiry(second.id)).toBeUndefined();
    // dark moves on too: now the first media is shown nowhere
    const profile = ok(await put(carol, 'avatar', 'dark', third.id));
    expect(profile.media.avatar).toEqual({ light: second.urls, dark: third.urls });
    expect(isReleaseExpiry(await mediaExpiry(first.id))).toBe(true);
    expect(await mediaExpiry(third.id)).toBeUndefined();
    // a released media may be set again, and is attached again
    ok(await put(carol, 'avatar', 'dark', first.id));
    expect(await mediaExpiry(first.id)).toBeUndefined();
    expect(isReleaseExpiry(await mediaExpiry(third.id))).toBe(true);
  });

  it('DELETE removes the variant and releases its media; removing nothing answers the profile as it is', async () => {
    const carol = await actor();
    const [avatar, banner] = await Promise.all([readyMedia(carol, 'avatar'), readyMedia(carol, 'banner')]);
    ok(await put(carol, 'avatar', 'light', avatar.id));
    ok(await put(carol, 'banner', 'light', banner.id));
    const removed = ok(await remove(carol, 'avatar', 'light'));
    expect(removed.media).toEqual({ avatar: {}, banner: { light: banner.urls } });
    expect(isReleaseExpiry(await mediaExpiry(avatar.id))).toBe(true);
    expect(await mediaExpiry(banner.id)).toBeUndefined();
    const again = ok(await remove(carol, 'avatar', 'light'));
    expect(again).toEqual(removed);
    expect(ok(await remove(carol, 'avatar', 'dark')).media.avatar).toEqual({});
  });

  it("another profile's media or an unknown one is 404, the other slot's media 400, a media not ready 409", async () => {
    const [bobs, banner] = await Promise.all([readyMedia(bob, 'avatar'), readyMedia(alice, 'banner')]);
    expectError(await put(alice, 'avatar', 'light', bobs.id), 404, 'not_found');
    expectError(await put(alice, 'avatar', 'light', randomUUID()), 404, 'not_found');
    const wrong = expectError(await put(alice, 'avatar', 'light', banner.id), 400, 'invalid_request');
    expect(wrong.error_message).toContain('banner');
    const postImage = await readyMedia(alice, 'post_image');
    expectError(await put(alice, 'banner', 'dark', postImage.id), 400, 'invalid_request');

    const { media: waiting } = await startMedia(alice, 'avatar', await solidImage(200, 200));
    const early = expectError(await put(alice, 'avatar', 'light', waiting.id), 409, 'media_not_ready');
    expect(early.agent.hint).toContain(`GET /v1/media/${waiting.id}`);
    // none of these changed the profile or attached anything
    expect(ok(await call('GET', `/v1/profiles/${alice.profile.id}`)).media).toEqual({ avatar: {}, banner: {} });
    expect(await mediaExpiry(bobs.id)).toBeDefined();
  });

  it('bad paths and bodies are 400; the credential must be one that may edit the profile', async () => {
    const avatar = await readyMedia(alice, 'avatar');
    expectError(await put(alice, 'logo', 'light', avatar.id), 400, 'invalid_request');
    expectError(await put(alice, 'avatar', 'dim', avatar.id), 400, 'invalid_request');
    expectError(
      await call('PUT', path(alice, 'avatar', 'light'), { token: alice.key, body: { media_id: avatar.id, url: 'x' } }),
      400,
      'invalid_request',
    );
    expectError(
      await call('PUT', path(alice, 'avatar', 'light'), { token: alice.key, body: { media_id: 'nope' } }),
      400,
      'invalid_request',
    );
    expectError(
      await call('PUT', path(alice, 'avatar', 'light'), { body: { media_id: avatar.id } }),
      401,
      'unauthorized',
    );
    expectError(await put(alice, 'avatar', 'light', avatar.id, bob.key), 403, 'profile_not_permitted');
    expectError(await remove(alice, 'avatar', 'light', bob.session), 403, 'profile_not_permitted');
    const { key: readOnly } = await createApiKey(
      alice.session,
      alice.workspaceId,
      ['profiles:read'],
      [alice.profile.id],
    );
    expectError(await put(alice, 'avatar', 'light', avatar.id, readOnly), 403, 'insufficient_scope');
  });

  it('a manager needs profile_editing in the grant', async () => {
    const [dave, erin] = await Promise.all([actor(), actor()]);
    const grant = async (permissions: string[]) => {
      const { access_grant } = ok(
        await call('POST', '/v1/profile-access', {
          token: dave.key,
          body: { profile_id: dave.profile.id, manager_profile_id: erin.profile.id, permissions },
        }),
        201,
      );
      ok(await call('POST', `/v1/profile-access/invitations/${access_grant.id}/accept`, { token: erin.key }));
      return access_grant.id as string;
    };
    const avatar = await readyMedia(dave, 'avatar');
    const posting = await grant(['posting']);
    expectError(await put(dave, 'avatar', 'light', avatar.id, erin.key), 403, 'profile_not_permitted');
    ok(await call('POST', `/v1/profile-access/${posting}/revoke`, { token: dave.key }));
    await grant(['profile_editing']);
    expect(ok(await put(dave, 'avatar', 'light', avatar.id, erin.key)).media.avatar.light).toEqual(avatar.urls);
  });

  it("the author card on the profile's posts shows the new avatar within a few seconds", async () => {
    const author = await actor();
    const { post: published } = await post(author, { body: 'card with a face' });
    const avatar = await readyMedia(author, 'avatar');
    ok(await put(author, 'avatar', 'light', avatar.id));

    const started = Date.now();
    let seen: unknown;
    while (Date.now() - started < 5000) {
      seen = ok(await call('GET', `/v1/posts/${published.id}`)).profile.media.avatar.light;
      if (seen) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual(avatar.urls);
    // and the profile's list of posts, which shows the profile as it is
    const list = ok(await call('GET', `/v1/profiles/${author.profile.id}/posts`));
    expect(list.items[0].profile.media.avatar.light).toEqual(avatar.urls);
  });
});
