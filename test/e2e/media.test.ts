/**
 * Media over HTTP on the local runtime: create, upload the form exactly as a client does (fetch +
 * FormData), poll until ready, fetch every file and look at its pixels and metadata with sharp;
 * the bad input of API.md "Media" that the routes, the storage and the processor answer.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { createMedia, photo, pixel, postUpload, waitForMedia, type Upload } from '../support/media.js';
import { actor, ok, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const MIB = 1024 * 1024;

/** Creates a media for alice's profile and returns it with its upload form. */
async function started(purpose: string, file: Buffer, contentType = 'image/jpeg', length = file.length) {
  const created = ok(
    await createMedia(alice.key, alice.profile.id, { purpose, content_type: contentType, content_length: length }),
    201,
  );
  return created as { media: { id: string; status: string }; upload: Upload };
}

const fetchFile = async (url: string) => {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return { response, body: Buffer.from(await response.arrayBuffer()) };
};

const isRed = ([r, g, b]: number[]) => r! > 180 && g! < 70 && b! < 70;
const isBlue = ([r, g, b]: number[]) => b! > 180 && r! < 70 && g! < 70;

describe('an avatar, from upload to its files', () => {
  it('is created awaiting its upload, with a form for exactly this key, and polls with Retry-After: 1', async () => {
    const file = await photo(1200, 800, 6);
    const { media, upload } = await started('avatar', file);
    expect(media).toMatchObject({
      profile_id: alice.profile.id,
      purpose: 'avatar',
      status: 'awaiting_upload',
      content_type: 'image/jpeg',
      width: null,
      height: null,
      urls: null,
      error_code: null,
      error_message: null,
    });
    expect(upload.method).toBe('POST');
    expect(upload.fields).toMatchObject({ key: `incoming/${media.id}`, 'Content-Type': 'image/jpeg' });
    const expiresIn =
      Date.parse(upload.expires_at) - Date.parse((media as unknown as { created_at: string }).created_at);
    expect(expiresIn).toBe(15 * 60_000);

    const waiting = await call('GET', `/v1/media/${media.id}`, { token: alice.key });
    expect(ok(waiting)).toMatchObject({ id: media.id, status: 'awaiting_upload' });
    expect(waiting.headers.get('retry-after')).toBe('1');
  });

  it('is processed into the four files: upright, cropped square, every metadata block but colour gone, cached a year', async () => {
    // Stored 1200 × 800 with the red half on top; EXIF orientation 6 shows it turned: red on the right.
    const file = await photo(1200, 800, 6);
    const { media, upload } = await started('avatar', file);
    expect(await postUpload(upload, file, { fileType: 'image/jpeg' })).toMatchObject({ status: 204 });

    const done = await waitForMedia(alice.key, media.id);
    const ready = ok(done);
    expect(done.headers.get('retry-after')).toBeNull();
    expect(ready).toMatchObject({ status: 'ready', width: 800, height: 800, error_code: null });
    const sizes: Record<string, [number, number]> = {
      source_url: [800, 1200],
      large_url: [800, 800],
      medium_url: [400, 400],
      small_url: [128, 128],
    };
    for (const [name, [width, height]] of Object.entries(sizes)) {
      const url = ready.urls[name] as string;
      expect(url).toMatch(new RegExp(`/local-media/media/${media.id}/`));
      const { response, body } = await fetchFile(url);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(body).metadata();
      expect([meta.format, meta.width, meta.height], name).toEqual(['jpeg', width, height]);
      expect(meta.exif, name).toBeUndefined();
      expect(meta.xmp, name).toBeUndefined();
      expect(meta.orientation ?? 1, name).toBe(1);
      // Upright: the stored top (red) is now the right-hand side, the stored bottom (blue) the left.
      expect(isRed(await pixel(body, width - 3, Math.floor(height / 2))), name).toBe(true);
      expect(isBlue(await pixel(body, 2, Math.floor(height / 2))), name).toBe(true);
    }
  });

  it('is not processed again when its upload arrives a second time (the processor event seen twice)', async () => {
    const file = await photo(600, 600);
    const { media, upload } = await started('avatar', file);
    expect((await postUpload(upload, file)).status).toBe(204);
    const first = ok(await waitForMedia(alice.key, media.id));
    expect(first.status).toBe('ready');

    expect((await postUpload(upload, file)).status).toBe(204);
    await new Promise((r) => setTimeout(r, 500));
    expect(ok(await call('GET', `/v1/media/${media.id}`, { token: alice.key }))).toEqual(first);
  });

  it('a post image keeps its aspect ratio and is never enlarged', async () => {
    const file = await photo(900, 500);
    const { media, upload } = await started('post_image', file);
    expect((await postUpload(upload, file)).status).toBe(204);
    const ready = ok(await waitForMedia(alice.key, media.id));
    expect(ready).toMatchObject({ status: 'ready', width: 900, height: 500 });
    const small = await sharp((await fetchFile(ready.urls.small_url as string)).body).metadata();
    expect([small.width, small.height]).toEqual([680, 378]);
  });
});

describe('bad input', () => {
  const declare = (purpose: string, content_type: string, content_length: number) =>
    createMedia(alice.key, alice.profile.id, { purpose, content_type, content_length });

  it('HEIC or any type not listed is 415; a length over the purpose limit is 413; under 1 is 400', async () => {
    expectError(await declare('avatar', 'image/heic', 1000), 415, 'unsupported_media_type');
    expectError(await declare('post_image', 'application/pdf', 1000), 415, 'unsupported_media_type');
    expectError(await declare('avatar', 'image/svg+xml', 1000), 415, 'unsupported_media_type');
    expectError(await declare('avatar', 'image/png', 5 * MIB + 1), 413, 'payload_too_large');
    expectError(await declare('banner', 'image/png', 5 * MIB + 1), 413, 'payload_too_large');
    expectError(await declare('post_image', 'image/png', 10 * MIB + 1), 413, 'payload_too_large');
    expect((await declare('post_image', 'image/png', 10 * MIB)).status).toBe(201);
    expect((await declare('avatar', 'IMAGE/PNG', 5 * MIB)).body.data.media.content_type).toBe('image/png');
    expectError(await declare('avatar', 'image/png', 0), 400, 'invalid_request');
    expectError(await declare('icon', 'image/png', 10), 400, 'invalid_request');
  });

  it('an upload that breaks the policy is refused by the storage, and nothing is processed', async () => {
    const file = await photo(300, 300);
    const { media, upload } = await started('avatar', file, 'image/jpeg', 1000);
    const other = await started('avatar', file);

    const tooBig = await postUpload(upload, file);
    expect(tooBig.status).toBe(400);
    expect(tooBig.text).toContain('EntityTooLarge');
    const retyped = await postUpload(upload, file, { fields: { 'Content-Type': 'image/png' } });
    expect(retyped.status).toBe(403);
    const elsewhere = await postUpload(upload, file.subarray(0, 900), {
      fields: { key: `incoming/${other.media.id}` },
    });
    expect(elsewhere.status).toBe(403);
    const forged = await postUpload(upload, file.subarray(0, 900), {
      fields: { 'X-Local-Signature': '0'.repeat(64) },
    });
    expect(forged.status).toBe(403);

    await new Promise((r) => setTimeout(r, 300));
    for (const id of [media.id, other.media.id])
      expect(ok(await call('GET', `/v1/media/${id}`, { token: alice.key })).status).toBe('awaiting_upload');
  });

  it('a text file sent as a PNG ends failed with unsupported_media_type', async () => {
    const text = Buffer.from('this is not an image at all, just some text pretending to be a PNG\n'.repeat(20));
    const { media, upload } = await started('avatar', text, 'image/png');
    expect((await postUpload(upload, text, { fileType: 'image/png' })).status).toBe(204);
    expect(ok(await waitForMedia(alice.key, media.id))).toMatchObject({
      status: 'failed',
      error_code: 'unsupported_media_type',
      error_message: expect.any(String) as string,
      urls: null,
      width: null,
    });
  });

  it('a decompression bomb (a small PNG of 64 megapixels) ends failed with image_too_large', async () => {
    const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(5 * MIB);
    const { media, upload } = await started('avatar', bomb, 'image/png');
    expect((await postUpload(upload, bomb)).status).toBe(204);
    expect(ok(await waitForMedia(alice.key, media.id))).toMatchObject({
      status: 'failed',
      error_code: 'image_too_large',
    });
  });

  it("another profile's media is not found; so is one that does not exist", async () => {
    const { media } = await started('avatar', Buffer.alloc(10), 'image/png', 10);
    expectError(await call('GET', `/v1/media/${media.id}`, { token: bob.key }), 404, 'not_found');
    expectError(await call('GET', `/v1/media/${media.id}`, { token: bob.session }), 404, 'not_found');
    // A key of alice's own workspace that is not attached to her profile.
    const { key } = await createApiKey(alice.session, alice.workspaceId, ['media:all'], []);
    expectError(await call('GET', `/v1/media/${media.id}`, { token: key }), 404, 'not_found');
    expect(ok(await call('GET', `/v1/media/${media.id}`, { token: alice.session })).id).toBe(media.id);
    expectError(
      await call('GET', '/v1/media/00000000-0000-4000-8000-000000000000', { token: alice.key }),
      404,
      'not_found',
    );
  });
});

describe('who may upload', () => {
  it('needs media:write to create and media:read to read (write does not imply read)', async () => {
    const { key: writeOnly } = await createApiKey(
      alice.session,
      alice.workspaceId,
      ['media:write'],
      [alice.profile.id],
    );
    const created = ok(
      await createMedia(writeOnly, alice.profile.id, {
        purpose: 'avatar',
        content_type: 'image/png',
        content_length: 10,
      }),
      201,
    );
    expectError(await call('GET', `/v1/media/${created.media.id}`, { token: writeOnly }), 403, 'insufficient_scope');
    const { key: postsOnly } = await createApiKey(alice.session, alice.workspaceId, ['posts:all'], [alice.profile.id]);
    expectError(
      await createMedia(postsOnly, alice.profile.id, {
        purpose: 'post_image',
        content_type: 'image/png',
        content_length: 10,
      }),
      403,
      'insufficient_scope',
    );
    expectError(
      await createMedia(bob.key, alice.profile.id, {
        purpose: 'avatar',
        content_type: 'image/png',
        content_length: 10,
      }),
      403,
      'profile_not_permitted',
    );
  });

  it('a manager acts through a grant by purpose: posting for post images, profile_editing for avatars and banners', async () => {
    const grant = ok(
      await call('POST', '/v1/profile-access', {
        token: alice.key,
        body: { profile_id: alice.profile.id, manager_profile_id: bob.profile.id, permissions: ['posting'] },
      }),
      201,
    ).access_grant as { id: string };
    ok(await call('POST', `/v1/profile-access/invitations/${grant.id}/accept`, { token: bob.key }));

    const asBob = (purpose: string) =>
      createMedia(bob.key, alice.profile.id, { purpose, content_type: 'image/png', content_length: 10 });
    const postImage = ok(await asBob('post_image'), 201);
    expect(postImage.media.profile_id).toBe(alice.profile.id);
    expectError(await asBob('avatar'), 403, 'profile_not_permitted');
    expectError(await asBob('banner'), 403, 'profile_not_permitted');
    // Bob follows the media he made for alice; not one of her avatars, which his grant does not cover.
    expect(ok(await call('GET', `/v1/media/${postImage.media.id}`, { token: bob.key })).id).toBe(postImage.media.id);
    const { media: avatar } = await started('avatar', Buffer.alloc(10), 'image/png', 10);
    expectError(await call('GET', `/v1/media/${avatar.id}`, { token: bob.key }), 404, 'not_found');
  });
});
