/**
 * Data exports over HTTP (API.md "Your data is yours"): the routes and their refusals, and the
 * archive itself, downloaded from its URL, unzipped and held file by file to the API's answers.
 */
import { unzipSync, strFromU8 } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError, signUp, unique } from '../support/api.js';
import { waitForMail } from '../support/mail.js';
import { actor, ok, post, settledCount, type Actor } from '../support/social.js';
import { readyMedia } from '../support/uploads.js';
import { createEndpoint } from '../support/webhooks.js';

const as = (a: Actor) => ({ token: a.key, profileId: a.profile.id });

type ExportBody = {
  id: string;
  status: string;
  download_url: string | null;
  size_bytes: number | null;
  expires_at: string | null;
  failure_reason: string | null;
};

const requestExport = (token: string) => call('POST', '/v1/me/exports', { token });

/** Polls the export until it leaves `pending`. */
async function settled(token: string, id: string, timeoutMs = 30_000): Promise<ExportBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = ok<{ export: ExportBody }>(await call('GET', `/v1/me/exports/${id}`, { token }));
    if (answer.export.status !== 'pending' || Date.now() > deadline) return answer.export;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function download(url: string): Promise<{ bytes: Uint8Array; files: Record<string, Uint8Array> }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/zip');
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, files: unzipSync(bytes) };
}

const json = (files: Record<string, Uint8Array>, name: string): any => {
  expect(files[name], name).toBeDefined();
  return JSON.parse(strFromU8(files[name]!));
};

describe('data export', () => {
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  let dan: Actor;
  const secrets: string[] = [];
  let exported: ExportBody;
  let files: Record<string, Uint8Array>;
  let archive: Uint8Array;
  let published: { id: string };
  let draft: { id: string };
  let commentId: string;
  let imageId: string;
  const liked = { posts: [] as string[], comments: [] as string[] };

  beforeAll(async () => {
    [alice, bob, carol, dan] = await Promise.all([actor(), actor(), actor(), actor()]);
    secrets.push(alice.key, alice.session, alice.user.password);
    // Alice writes: a published post, edited once (its history), a draft, an image post, a comment.
    ({ post: published } = await post(alice, { body: 'first words' }));
    ok(await call('PATCH', `/v1/posts/${published.id}`, { ...as(alice), body: { body: 'better words' } }));
    ({ post: draft } = await post(alice, { body: 'not yet', status: 'draft' }));
    const image = await readyMedia(alice, 'post_image');
    imageId = image.id;
    await post(alice, { body: 'a picture', images: [{ media_id: image.id, alt_text: 'Green' }] });
    const { post: bobsPost } = await post(bob, { body: 'comment on this' });
    commentId = ok(
      await call('POST', `/v1/posts/${bobsPost.id}/comments`, { ...as(alice), body: { body: 'a comment' } }),
      201,
    ).comment.id;
    // Alice likes bob's post and bob's comment on her post (her likes.json).
    const bobsComment = ok(
      await call('POST', `/v1/posts/${published.id}/comments`, { ...as(bob), body: { body: 'nice words' } }),
      201,
    ).comment.id as string;
    const like = { reaction_type: 'like', active: true };
    ok(await call('PUT', `/v1/posts/${bobsPost.id}/reaction`, { ...as(alice), body: like }));
    ok(await call('PUT', `/v1/comments/${bobsComment}/reaction`, { ...as(alice), body: like }));
    liked.posts.push(bobsPost.id);
    liked.comments.push(bobsComment);
    // Relations: alice follows bob, bob follows alice, alice blocks carol and mutes dan.
    ok(await call('POST', '/v1/profile-follows', { ...as(alice), body: { followed_profile_id: bob.profile.id } }), 201);
    ok(await call('POST', '/v1/profile-follows', { ...as(bob), body: { followed_profile_id: alice.profile.id } }), 201);
    ok(await call('POST', '/v1/profile-blocks', { ...as(alice), body: { blocked_profile_id: carol.profile.id } }), 201);
    ok(await call('POST', '/v1/profile-mutes', { ...as(alice), body: { muted_profile_id: dan.profile.id } }), 201);
    // Messages both ways.
    for (const [from, to, body] of [
      [alice, bob, 'hello bob'],
      [bob, alice, 'hello alice'],
    ] as const)
      ok(await call('POST', '/v1/messages', { ...as(from), body: { recipient_profile_id: to.profile.id, body } }), 201);
    const endpoint = await createEndpoint(
      { ...alice.user, profiles: [alice.profile] },
      { url: 'https://example.com/hooks' },
    );
    secrets.push(endpoint.secret);
    // What the table stream folds (counts) and writes (notifications) has landed before the export reads it.
    await settledCount(
      'followers',
      async () => ok(await call('GET', `/v1/profiles/${alice.profile.id}`)).followers_count,
      1,
    );
    await settledCount(
      'notifications',
      async () => ok(await call('GET', '/v1/notifications', as(alice))).items.length,
      2, // bob's follow and bob's comment
    );

    const created = await requestExport(alice.session);
    expect(created.status).toBe(201);
    expect(created.body.data.export).toMatchObject({ status: 'pending', download_url: null, size_bytes: null });
    exported = await settled(alice.session, created.body.data.export.id);
    expect(exported.status).toBe('ready');
    ({ bytes: archive, files } = await download(exported.download_url!));
  }, 120_000);

  it('is ready with its size, a download URL and a 7-day expiry, and a mail says so', async () => {
    expect(exported.size_bytes).toBe(archive.byteLength);
    const days = (new Date(exported.expires_at!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const mails = await waitForMail(alice.user.email, 2);
    const mail = mails.find((m) => m.subject === 'Your data export is ready');
    expect(mail?.text).toContain('/console#/account');
    const listed = ok(await call('GET', '/v1/me/exports', { token: alice.session }));
    expect(listed.items.map((e: ExportBody) => e.id)).toEqual([exported.id]);
  });

  it('holds README, account and the profile as the API answers them', async () => {
    expect(strFromU8(files['README.txt']!)).toContain('profiles/<username>/posts.json');
    const me = ok(await call('GET', '/v1/me', { token: alice.session }));
    expect(json(files, 'account.json')).toEqual({ user: me.user, workspaces: me.workspaces });
    const dir = `profiles/${alice.profile.username}/`;
    const profile = ok(await call('GET', `/v1/profiles/${alice.profile.id}`));
    expect(json(files, `${dir}profile.json`)).toEqual(profile);
  });

  it('holds every post, draft included, each with its history as the history route answers it', async () => {
    const dir = `profiles/${alice.profile.username}/`;
    const posts = json(files, `${dir}posts.json`) as { id: string; history: unknown[] }[];
    expect(posts.map((p) => p.id).sort()).toHaveLength(3);
    expect(posts.map((p) => p.id)).toContain(draft.id);
    const edited = posts.find((p) => p.id === published.id)!;
    const { history, ...shape } = edited;
    expect(shape).toEqual(ok(await call('GET', `/v1/posts/${published.id}`, as(alice))).post);
    expect(history).toEqual(ok(await call('GET', `/v1/posts/${published.id}/history`, as(alice))).items);
    expect(history).toHaveLength(1);
    const comments = json(files, `${dir}comments.json`) as { id: string; history: unknown[] }[];
    expect(comments.map((c) => c.id)).toEqual([commentId]);
    expect(comments[0]!.history).toEqual([]);
  });

  it('holds its likes as { posts: [id], comments: [id] }', () => {
    expect(json(files, `profiles/${alice.profile.username}/likes.json`)).toEqual(liked);
  });

  it('holds follows both ways, blocks and mutes as { profile_id, username, since }', () => {
    const dir = `profiles/${alice.profile.username}/`;
    const entry = (a: Actor) => ({ profile_id: a.profile.id, username: a.profile.username, since: expect.any(String) });
    expect(json(files, `${dir}following.json`)).toEqual([entry(bob)]);
    expect(json(files, `${dir}followers.json`)).toEqual([entry(bob)]);
    expect(json(files, `${dir}blocks.json`)).toEqual([entry(carol)]);
    expect(json(files, `${dir}mutes.json`)).toEqual([entry(dan)]);
  });

  it('holds the messages of its conversations both ways, as the conversation route answers them', async () => {
    const conversation = ok(await call('GET', `/v1/messages?with_profile_id=${bob.profile.id}&limit=100`, as(alice)));
    const messages = json(files, `profiles/${alice.profile.username}/messages.json`);
    expect(messages).toEqual(conversation.items);
    expect(messages.map((m: { body: string }) => m.body)).toEqual(['hello alice', 'hello bob']);
  });

  it('holds notifications, media with their files, webhook endpoints and API keys as the API answers them', async () => {
    const dir = `profiles/${alice.profile.username}/`;
    const notifications = ok(await call('GET', '/v1/notifications?limit=100', as(alice)));
    expect(json(files, `${dir}notifications.json`)).toEqual(notifications.items);
    const media = ok(await call('GET', `/v1/media/${imageId}`, as(alice)));
    expect(json(files, `${dir}media.json`)).toEqual([media]);
    const served = new Uint8Array(await (await fetch(media.urls.source_url)).arrayBuffer());
    const name = new URL(media.urls.source_url).pathname.split('/').pop();
    expect(files[`${dir}media/${imageId}/${name}`]).toEqual(served);

    const ws = `workspaces/${alice.workspaceId}/`;
    const endpoints = ok(
      await call('GET', `/v1/workspaces/${alice.workspaceId}/webhook-endpoints`, { token: alice.session }),
    );
    expect(json(files, `${ws}webhook-endpoints.json`)).toEqual(endpoints.items);
    const keys = ok(
      await call('GET', `/v1/workspaces/${alice.workspaceId}/api-keys?limit=100`, { token: alice.session }),
    );
    expect(json(files, `${ws}api-keys.json`)).toEqual(keys.items);
  });

  it('holds no secret: no password, API key, session token or signing secret, nor any hash of the table', () => {
    const text = Object.values(files)
      .map((bytes) => Buffer.from(bytes).toString('latin1'))
      .join('\n');
    for (const secret of secrets) expect(text).not.toContain(secret);
    for (const field of ['secret_hash', 'password_hash', 'token_hash', 'signing_secret', '"secret"'])
      expect(text).not.toContain(field);
  });

  it('imports its own following, blocks and mutes into another profile', async () => {
    const dave = await actor();
    const body = {
      following: json(files, `profiles/${alice.profile.username}/following.json`),
      blocks: json(files, `profiles/${alice.profile.username}/blocks.json`),
      mutes: json(files, `profiles/${alice.profile.username}/mutes.json`),
    };
    const first = ok(await call('POST', `/v1/profiles/${dave.profile.id}/imports`, { token: dave.key, body }));
    expect(first).toEqual({ followed: 1, blocked: 1, muted: 1, not_found: [] });
    const again = ok(await call('POST', `/v1/profiles/${dave.profile.id}/imports`, { token: dave.key, body }));
    expect(again).toEqual(first);
    const following = ok(await call('GET', `/v1/profiles/${dave.profile.id}/following`));
    expect(following.items.map((i: { profile: { id: string } }) => i.profile.id)).toEqual([bob.profile.id]);
    const blocks = ok(await call('GET', '/v1/profile-blocks', as(dave)));
    expect(blocks.items.map((i: { profile: { id: string } }) => i.profile.id)).toEqual([carol.profile.id]);
  });
});

describe('export refusals', () => {
  it('runs one at a time: another while one is pending is 409 invalid_state', async () => {
    const me = await signUp();
    const first = await requestExport(me.token);
    expect(first.status).toBe(201);
    const second = await requestExport(me.token);
    expectError(second, 409, 'invalid_state');
    // Once the first has settled, a new one may start.
    expect((await settled(me.token, first.body.data.export.id)).status).toBe('ready');
    expect((await requestExport(me.token)).status).toBe(201);
  });

  it('is session-only: an API key is 403 session_required', async () => {
    const me = await signUp();
    const { key } = await createApiKey(me.token, me.workspace.id, ['all:all']);
    expectError(await requestExport(key), 403, 'session_required');
    expectError(await call('GET', '/v1/me/exports', { token: key }), 403, 'session_required');
  });

  it("answers another user's export as not found", async () => {
    const [owner, other] = await Promise.all([signUp(), signUp()]);
    const id = ok(await requestExport(owner.token), 201).export.id;
    expectError(await call('GET', `/v1/me/exports/${id}`, { token: other.token }), 404, 'not_found');
    expectError(await call('GET', `/v1/me/exports/${crypto.randomUUID()}`, { token: owner.token }), 404, 'not_found');
  });
});

describe('import refusals', () => {
  let dave: Actor;
  let erin: Actor;
  beforeAll(async () => {
    [dave, erin] = await Promise.all([actor(), actor()]);
  });

  const importInto = (a: Actor, body: unknown, token = a.key) =>
    call('POST', `/v1/profiles/${a.profile.id}/imports`, { token, body });

  it('matches by profile_id, then username, and lists the rest as not found', async () => {
    const ghost = unique('ghost');
    const answer = ok(
      await importInto(dave, {
        following: [
          { profile_id: crypto.randomUUID(), username: erin.profile.username },
          { username: ghost },
          { profile_id: dave.profile.id, username: dave.profile.username },
        ],
      }),
    );
    expect(answer).toEqual({ followed: 1, blocked: 0, muted: 0, not_found: [ghost, dave.profile.username] });
  });

  it('refuses more than 10,000 entries and malformed ones with 400, changing nothing', async () => {
    const many = Array.from({ length: 10_001 }, () => ({ username: 'someone' }));
    expectError(await importInto(erin, { mutes: many }), 400, 'invalid_request');
    expectError(await importInto(erin, { blocks: [{ since: '2020-01-01' }] }), 400, 'invalid_request');
    expectError(await importInto(erin, { following: 'not a list' }), 400, 'invalid_request');
    expectError(
      await importInto(erin, { blocks: [{ profile_id: dave.profile.id }], extra: [] }),
      400,
      'invalid_request',
    );
    expect(ok(await call('GET', '/v1/profile-blocks', as(erin))).items).toEqual([]);
  });

  it('needs safety:write of an API key for blocks and mutes', async () => {
    const { key } = await createApiKey(erin.session, erin.workspaceId, ['follows:write'], [erin.profile.id]);
    expectError(await importInto(erin, { mutes: [{ profile_id: dave.profile.id }] }, key), 403, 'insufficient_scope');
    expect(ok(await importInto(erin, { following: [{ profile_id: dave.profile.id }] }, key)).followed).toBe(1);
  });
});
