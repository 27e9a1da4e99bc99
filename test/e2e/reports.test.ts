import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { report } from '../support/moderation.js';
import { actor, ok, post, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
let carol: Actor;
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([actor(), actor(), actor()]);
});

describe('reports', () => {
  it('files a report of a visible post (201), answers a second open one with the first unchanged (200)', async () => {
    const { post: p } = await post(alice, { body: 'buy cheap followers' });
    const first = ok(
      await report(bob, { subject_type: 'post', subject_id: p.id, reason: 'spam', details: 'bots' }),
      201,
    );
    expect(first.report).toEqual({
      id: expect.any(String),
      subject_type: 'post',
      subject_id: p.id,
      reason: 'spam',
      details: 'bots',
      status: 'open',
      resolution: null,
      created_at: expect.any(String),
      resolved_at: null,
    });
    const again = await report(bob, { subject_type: 'post', subject_id: p.id, reason: 'harassment' });
    expect(ok(again, 200).report).toEqual(first.report);
    // Another reporter files its own.
    const other = ok(await report(carol, { subject_type: 'post', subject_id: p.id, reason: 'hate' }), 201);
    expect(other.report.id).not.toBe(first.report.id);
  });

  it('creates exactly one open report under concurrency', async () => {
    const { post: p } = await post(alice, { body: 'contested' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => report(bob, { subject_type: 'post', subject_id: p.id, reason: 'spam' })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(7);
    expect(new Set(answers.map((a) => a.body.data.report.id)).size).toBe(1);
  });

  it('reports comments, profiles and messages the reporter can see; anything else is 404', async () => {
    const { post: p } = await post(alice, { body: 'thread' });
    const comment = ok(
      await call('POST', `/v1/posts/${p.id}/comments`, {
        token: alice.key,
        profileId: alice.profile.id,
        body: { body: 'rude' },
      }),
      201,
    ).comment;
    ok(await report(bob, { subject_type: 'comment', subject_id: comment.id, reason: 'harassment' }), 201);
    ok(await report(bob, { subject_type: 'profile', subject_id: alice.profile.id, reason: 'impersonation' }), 201);

    const message = ok(
      await call('POST', '/v1/messages', {
        token: alice.key,
        profileId: alice.profile.id,
        body: { recipient_profile_id: bob.profile.id, body: 'unwanted' },
      }),
      201,
    ).message;
    // Its recipient and its sender may report it; a third profile may not see it.
    ok(await report(bob, { subject_type: 'message', subject_id: message.id, reason: 'harassment' }), 201);
    ok(await report(alice, { subject_type: 'message', subject_id: message.id, reason: 'other' }), 201);
    expectError(
      await report(carol, { subject_type: 'message', subject_id: message.id, reason: 'spam' }),
      404,
      'not_found',
    );

    const { post: draft } = await post(alice, { body: 'draft', status: 'draft' });
    expectError(await report(bob, { subject_type: 'post', subject_id: draft.id, reason: 'spam' }), 404, 'not_found');
    for (const type of ['post', 'comment', 'profile', 'message'])
      expectError(
        await report(bob, { subject_type: type, subject_id: randomUUID(), reason: 'spam' }),
        404,
        'not_found',
      );
  });

  it('validates the reason, the subject type and the details', async () => {
    const { post: p } = await post(alice, { body: 'x' });
    const base = { subject_type: 'post', subject_id: p.id };
    expectError(await report(bob, { ...base, reason: 'rude' }), 400, 'invalid_request');
    expectError(await report(bob, { ...base, subject_type: 'workspace', reason: 'spam' }), 400, 'invalid_request');
    expectError(await report(bob, { ...base, reason: 'spam', details: 'x'.repeat(1001) }), 400, 'invalid_request');
    ok(await report(bob, { ...base, reason: 'spam', details: 'x'.repeat(1000) }), 201);
  });

  it('needs the safety scope', async () => {
    const { post: p } = await post(alice, { body: 'scoped' });
    const { key } = await createApiKey(bob.session, bob.workspaceId, ['posts:all'], [bob.profile.id]);
    const body = { subject_type: 'post', subject_id: p.id, reason: 'spam' };
    expectError(
      await call('POST', '/v1/reports', { token: key, profileId: bob.profile.id, body }),
      403,
      'insufficient_scope',
    );
    expectError(await call('GET', '/v1/reports', { token: key, profileId: bob.profile.id }), 403, 'insufficient_scope');
    const { key: safety } = await createApiKey(bob.session, bob.workspaceId, ['safety:write'], [bob.profile.id]);
    ok(await call('POST', '/v1/reports', { token: safety, profileId: bob.profile.id, body }), 201);
  });

  it("lists the acting profile's own reports, newest first, with strict cursors", async () => {
    const reporter = await actor();
    const ids: string[] = [];
    for (const reason of ['spam', 'hate', 'violence']) {
      const { post: p } = await post(alice, { body: reason });
      ids.push(ok(await report(reporter, { subject_type: 'post', subject_id: p.id, reason }), 201).report.id);
    }
    const list = (cursor?: string) =>
      call('GET', `/v1/reports?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
        token: reporter.key,
        profileId: reporter.profile.id,
      });
    const first = ok(await list());
    expect(first.items.map((r: any) => r.id)).toEqual([ids[2], ids[1]]);
    const second = ok(await list(first.next_cursor));
    expect(second.items.map((r: any) => r.id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
    // Someone else's cursor is refused, and others' reports are never listed.
    const bobs = ok(await call('GET', '/v1/reports?limit=1', { token: bob.key, profileId: bob.profile.id }));
    expect(bobs.items.every((r: any) => !ids.includes(r.id))).toBe(true);
    expectError(await list(bobs.next_cursor), 400, 'invalid_request');
  });
});
