/**
 * Post images by media_id over HTTP, with media uploaded and processed as a client does it: the
 * image the post shows, what may be attached (and each refusal), and what a removal releases.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { postUpload } from '../support/media.js';
import { actor, ok, post, type Actor } from '../support/social.js';
import { isReleaseExpiry, mediaExpiry, readyMedia, solidImage, startMedia } from '../support/uploads.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const create = (a: Actor, body: Record<string, unknown>) =>
  call('POST', '/v1/posts', { token: a.key, profileId: a.profile.id, body });

describe('post images', () => {
  it('shows the large file of each media, at its size, and attaches the media (no longer expiring)', async () => {
    const tall = await readyMedia(alice, 'post_image', await solidImage(1000, 3000, { r: 200, g: 30, b: 30 }));
    expect(await mediaExpiry(tall.id)).toBeDefined(); // unattached: gone after 24 hours
    const { post: p } = await post(alice, { body: 'a tall one', images: [{ media_id: tall.id, alt_text: 'Red' }] });
    expect(p.images).toEqual([
      { id: tall.id, url: tall.urls.large_url, width: tall.width, height: 2048, alt_text: 'Red' },
    ]);
    expect(await mediaExpiry(tall.id)).toBeUndefined();

    const file = await fetch(p.images[0].url);
    expect(file.status).toBe(200);
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([tall.width, 2048]);
  });

  it('takes up to four images; a draft attaches them too', async () => {
    const media = await Promise.all([1, 2, 3, 4].map(() => readyMedia(alice, 'post_image')));
    const { post: draft } = await post(alice, {
      body: 'four',
      status: 'draft',
      images: media.map((m) => ({ media_id: m.id })),
    });
    expect(draft.image_count).toBe(4);
    expect(draft.images.map((i: { id: string }) => i.id)).toEqual(media.map((m) => m.id));
    for (const m of media) expect(await mediaExpiry(m.id)).toBeUndefined();
  });

  it("another profile's media or an unknown one is 404; an avatar media is 400", async () => {
    const [bobs, avatar] = await Promise.all([readyMedia(bob, 'post_image'), readyMedia(alice, 'avatar')]);
    const others = expectError(await create(alice, { body: 'b', images: [{ media_id: bobs.id }] }), 404, 'not_found');
    expect(others.agent.hint).toContain('images[0].media_id');
    const unknown = expectError(
      await create(alice, {
        body: 'b',
        images: [{ media_id: (await readyMedia(alice, 'post_image')).id }, { media_id: randomUUID() }],
      }),
      404,
      'not_found',
    );
    expect(unknown.agent.hint).toContain('images[1].media_id');
    const purpose = expectError(
      await create(alice, { body: 'b', images: [{ media_id: avatar.id }] }),
      400,
      'invalid_request',
    );
    expect(purpose.error_message).toContain('post_image');
    // nothing of a refused post is attached
    expect(await mediaExpiry(bobs.id)).toBeDefined();
  });

  it('a media still awaiting its upload, or failed, is 409 media_not_ready', async () => {
    const image = await solidImage(300, 200);
    const { media: waiting } = await startMedia(alice, 'post_image', image);
    const early = expectError(
      await create(alice, { body: 'b', images: [{ media_id: waiting.id }] }),
      409,
      'media_not_ready',
    );
    expect(early.agent.hint).toContain(`GET /v1/media/${waiting.id}`);

    const text = Buffer.from('not an image at all, only text pretending to be a PNG');
    const { media: bad, upload } = await startMedia(alice, 'post_image', text);
    await postUpload(upload, text, { fileType: 'image/png' });
    for (let i = 0; i < 100; i++) {
      const status = ok(await call('GET', `/v1/media/${bad.id}`, { token: alice.key })).status;
      if (status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const failed = expectError(
      await create(alice, { body: 'b', images: [{ media_id: bad.id }] }),
      409,
      'media_not_ready',
    );
    expect(failed.agent.hint).toContain('unsupported_media_type');
  });

  it('a media shows on one post at a time: removing the post releases it (30 days) and frees it for another', async () => {
    const media = await readyMedia(alice, 'post_image');
    const { post: first } = await post(alice, { body: 'first', images: [{ media_id: media.id }] });
    const taken = expectError(
      await create(alice, { body: 'second', images: [{ media_id: media.id }] }),
      409,
      'invalid_state',
    );
    expect(taken.agent.hint).toContain('images[0].media_id');

    ok(await call('DELETE', `/v1/posts/${first.id}`, { token: alice.key, profileId: alice.profile.id }));
    expect(isReleaseExpiry(await mediaExpiry(media.id))).toBe(true);
    // the removed post still names its image to its author; the file stays until the media expires
    const removed = ok(await call('GET', `/v1/posts/${first.id}`, { token: alice.key, profileId: alice.profile.id }));
    expect(removed.post.images[0].id).toBe(media.id);
    expect((await fetch(media.urls.large_url)).status).toBe(200);

    const { post: second } = await post(alice, { body: 'second', images: [{ media_id: media.id }] });
    expect(second.images[0].id).toBe(media.id);
    expect(await mediaExpiry(media.id)).toBeUndefined();
  });
});
