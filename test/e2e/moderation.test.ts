import { beforeAll, describe, expect, it } from 'vitest';
import { call, createProfile, expectError, type ApiResponse } from '../support/api.js';
import { moderatorCommand, queue, report, resolve } from '../support/moderation.js';
import { actor, ok, post, type Actor } from '../support/social.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { emitEvent, waitFor, type Workspace } from '../support/webhooks.js';

let moderator: Actor;
let alice: Actor;
let reporters: Actor[];
beforeAll(async () => {
  [moderator, alice, ...reporters] = await Promise.all([actor(), actor(), actor(), actor(), actor()]);
  const granted = await moderatorCommand('grant', moderator.user.email);
  expect(granted.code, granted.output).toBe(0);
});

/** An actor's workspace as the webhook helpers name it. */
const workspaceOf = (a: Actor) => ({ ...a.user, profiles: [a.profile] }) as Workspace;

const me = (session: string) => call('GET', '/v1/me', { token: session });

/** Reads until the answer's status is `status` (author cards follow their profile through the stream). */
const until = (what: string, read: () => Promise<ApiResponse>, status: number) =>
  waitFor(what, async () => {
    const response = await read();
    return response.status === status ? response : undefined;
  });

describe('moderators', () => {
  it('are given and taken by the operator command, from the next request of an existing session', async () => {
    const user = await actor();
    expect(ok(await me(user.session)).platform_role).toBeNull();
    expectError(await call('GET', '/v1/moderation/subjects', { token: user.session }), 403, 'forbidden');

    expect((await moderatorCommand('grant', user.user.email.toUpperCase())).code).toBe(0);
    expect(ok(await me(user.session)).platform_role).toBe('moderator');
    ok(await call('GET', '/v1/moderation/subjects', { token: user.session }));

    expect((await moderatorCommand('revoke', user.user.email)).code).toBe(0);
    expect(ok(await me(user.session)).platform_role).toBeNull();
    expectError(await call('GET', '/v1/moderation/subjects', { token: user.session }), 403, 'forbidden');

    const unknown = await moderatorCommand('grant', 'nobody-here@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('No user has the email');
    expect((await moderatorCommand('promote' as 'grant', user.user.email)).code).toBe(2);
  });

  it('act through a session only: API keys are 403 session_required, even a moderator’s', async () => {
    expectError(await call('GET', '/v1/moderation/subjects', { token: moderator.key }), 403, 'session_required');
    const { post: p } = await post(alice, { body: 'x' });
    expectError(
      await call('POST', `/v1/moderation/subjects/post/${p.id}/resolve`, {
        token: moderator.key,
        body: { action: 'dismiss' },
      }),
      403,
      'session_required',
    );
    expectError(await resolve(alice.session, 'post', p.id, { action: 'dismiss' }), 403, 'forbidden');
  });
});

describe('the moderation queue', () => {
  it('groups reports per subject, most reported first, with reasons, first report time and snapshot', async () => {
    const subjects = await Promise.all([1, 2, 3].map((n) => post(alice, { body: `subject ${n}` })));
    const [one, two, three] = subjects.map((s) => s.post);
    // one: 1 report, two: 3 reports, three: 2 reports.
    ok(await report(reporters[0]!, { subject_type: 'post', subject_id: one!.id, reason: 'spam' }), 201);
    for (const [i, reason] of ['spam', 'spam', 'hate'].entries())
      ok(await report(reporters[i]!, { subject_type: 'post', subject_id: two!.id, reason }), 201);
    for (const i of [0, 1])
      ok(await report(reporters[i]!, { subject_type: 'post', subject_id: three!.id, reason: 'other' }), 201);

    const ours = (await queue(moderator.session)).filter((s) => [one, two, three].some((p) => p!.id === s.subject_id));
    expect(ours.map((s) => s.subject_id)).toEqual([two!.id, three!.id, one!.id]);
    const top = ours[0];
    expect(top).toMatchObject({
      subject_type: 'post',
      subject_id: two!.id,
      open_reports: 3,
      reasons: { spam: 2, hate: 1 },
      status: 'open',
      resolution: null,
    });
    expect(top.snapshot).toEqual(subjects[1]);
    expect(Date.parse(top.first_reported_at)).toBeGreaterThan(0);
    // Every queue page is ranked: a non-increasing count of open reports.
    const counts = (await queue(moderator.session)).map((s) => s.open_reports);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});

describe('resolving', () => {
  it('remove_content: the post reads 404 to everyone but its author (removed_by moderation); the reports are resolved', async () => {
    const { post: p } = await post(alice, { body: 'removable' });
    const filed = await Promise.all(
      reporters.slice(0, 2).map((r) => report(r, { subject_type: 'post', subject_id: p.id, reason: 'violence' })),
    );
    const resolved = ok(await resolve(moderator.session, 'post', p.id, { action: 'remove_content', note: 'gore' }));
    expect(resolved.subject).toMatchObject({
      status: 'resolved',
      open_reports: 0,
      resolution: 'content_removed',
      note: 'gore',
    });

    expectError(await call('GET', `/v1/posts/${p.id}`), 404, 'not_found');
    expectError(
      await call('GET', `/v1/posts/${p.id}`, { token: reporters[0]!.key, profileId: reporters[0]!.profile.id }),
      404,
      'not_found',
    );
    const own = ok(await call('GET', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id }));
    expect(own.post).toMatchObject({ status: 'removed', removed_by: 'moderation' });

    for (const [i, answer] of filed.entries()) {
      const id = answer.body.data.report.id;
      const mine = ok(
        await call('GET', '/v1/reports', { token: reporters[i]!.key, profileId: reporters[i]!.profile.id }),
      );
      expect(mine.items.find((r: any) => r.id === id)).toMatchObject({
        status: 'resolved',
        resolution: 'content_removed',
        resolved_at: resolved.subject.resolved_at,
      });
    }
    expect((await queue(moderator.session)).some((s) => s.subject_id === p.id)).toBe(false);
    expect((await queue(moderator.session, 'resolved')).find((s) => s.subject_id === p.id)).toMatchObject({
      resolution: 'content_removed',
    });
    // Nothing open any more; a new report opens a new round (201 again for the same reporter).
    expectError(await resolve(moderator.session, 'post', p.id, { action: 'dismiss' }), 404, 'not_found');
  });

  it('a resolve racing new reports leaves every report either resolved by it or counted open', async () => {
    const { post: p } = await post(alice, { body: 'racing' });
    const many = await Promise.all(Array.from({ length: 6 }, () => actor()));
    ok(await report(many[0]!, { subject_type: 'post', subject_id: p.id, reason: 'spam' }), 201);
    const [resolved, ...filed] = await Promise.all([
      resolve(moderator.session, 'post', p.id, { action: 'dismiss' }),
      ...many.slice(1).map((r) => report(r, { subject_type: 'post', subject_id: p.id, reason: 'hate' })),
    ]);
    expect(resolved.status).toBe(200);
    const states = await Promise.all(
      many.map(async (r) => {
        const mine = ok(await call('GET', '/v1/reports', { token: r.key, profileId: r.profile.id }));
        return mine.items.find((x: any) => x.subject_id === p.id).status as string;
      }),
    );
    expect(filed.every((f) => f.status === 201)).toBe(true);
    const open = states.filter((s) => s === 'open').length;
    expect(states[0]).toBe('resolved');
    const subject = (await queue(moderator.session)).find((s) => s.subject_id === p.id);
    expect(subject?.open_reports ?? 0).toBe(open);
  });

  it('removed_by is "author" after the author\'s DELETE and null on a published post', async () => {
    const { post: p } = await post(alice, { body: 'mine' });
    expect(p.removed_by).toBeNull();
    const removed = ok(await call('DELETE', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id }));
    expect(removed.post).toMatchObject({ status: 'removed', removed_by: 'author' });
  });

  it('dismiss closes the reports and changes nothing; a later report opens a new round', async () => {
    const { post: p } = await post(alice, { body: 'fine actually' });
    ok(await report(reporters[0]!, { subject_type: 'post', subject_id: p.id, reason: 'spam' }), 201);
    ok(await resolve(moderator.session, 'post', p.id, { action: 'dismiss' }));
    ok(await call('GET', `/v1/posts/${p.id}`));
    const again = ok(await report(reporters[0]!, { subject_type: 'post', subject_id: p.id, reason: 'hate' }), 201);
    expect(again.report.status).toBe('open');
    const subject = (await queue(moderator.session)).find((s) => s.subject_id === p.id);
    expect(subject).toMatchObject({ open_reports: 1, reasons: { hate: 1 } });
  });

  it('remove_content on a comment: gone from the list for others, shown removed to its author; not for profiles (400)', async () => {
    const { post: p } = await post(reporters[2]!, { body: 'host' });
    const c = ok(
      await call('POST', `/v1/posts/${p.id}/comments`, {
        token: alice.key,
        profileId: alice.profile.id,
        body: { body: 'nasty' },
      }),
      201,
    ).comment;
    ok(await report(reporters[0]!, { subject_type: 'comment', subject_id: c.id, reason: 'harassment' }), 201);
    ok(await resolve(moderator.session, 'comment', c.id, { action: 'remove_content' }));
    const anonymous = ok(await call('GET', `/v1/posts/${p.id}/comments`));
    expect(anonymous.items).toHaveLength(0);
    const authors = ok(
      await call('GET', `/v1/posts/${p.id}/comments`, { token: alice.key, profileId: alice.profile.id }),
    );
    expect(authors.items[0].comment).toMatchObject({ id: c.id, status: 'removed', removed_by: 'moderation' });
    expect(ok(await call('GET', `/v1/posts/${p.id}`)).post.comments_count).toBe(0);

    ok(await report(reporters[0]!, { subject_type: 'profile', subject_id: alice.profile.id, reason: 'spam' }), 201);
    expectError(
      await resolve(moderator.session, 'profile', alice.profile.id, { action: 'remove_content' }),
      400,
      'invalid_request',
    );
  });

  it('suspend_profile: no credential acts as it (403), it and its content read 404 and leave the lists, its webhooks stop', async () => {
    const villain = await actor();
    const fan = await actor();
    const { post: p } = await post(villain, { body: 'villainy' });
    ok(
      await call('POST', '/v1/profile-follows', {
        token: villain.key,
        profileId: villain.profile.id,
        body: { followed_profile_id: fan.profile.id },
      }),
      201,
    );
    const c = ok(
      await call('POST', `/v1/posts/${p.id}/comments`, {
        token: fan.key,
        profileId: fan.profile.id,
        body: { body: 'hmm' },
      }),
      201,
    ).comment;
    const { post: fansPost } = await post(fan, { body: 'a fan post' });
    ok(
      await call('POST', `/v1/posts/${fansPost.id}/comments`, {
        token: villain.key,
        profileId: villain.profile.id,
        body: { body: 'villain comment' },
      }),
      201,
    );

    // A receiver of the villain's profile events: one before the suspension arrives.
    const receiver = await startReceiver();
    const sibling = await createProfile(villain.session);
    const endpoint = ok(
      await call('POST', `/v1/workspaces/${villain.workspaceId}/webhook-endpoints`, {
        token: villain.session,
        body: {
          name: 'v',
          url: receiver.url,
          event_types: ['profile.followed'],
          profile_ids: [villain.profile.id, sibling.id],
        },
      }),
      201,
    );
    receiver.secrets.push(endpoint.secret);
    const follow = (who: Actor) =>
      call('POST', '/v1/profile-follows', {
        token: who.key,
        profileId: who.profile.id,
        body: { followed_profile_id: villain.profile.id },
      });
    ok(await follow(fan), 201);
    await waitFor('the first profile.followed', () => (receiver.received.length === 1 ? true : undefined));

    ok(await report(fan, { subject_type: 'post', subject_id: p.id, reason: 'illegal' }), 201);
    const done = ok(await resolve(moderator.session, 'post', p.id, { action: 'suspend_profile' }));
    expect(done.subject.resolution).toBe('profile_suspended');

    expectError(
      await call('GET', '/v1/reports', { token: villain.key, profileId: villain.profile.id }),
      403,
      'profile_suspended',
    );
    expectError(
      await call('POST', '/v1/posts', { token: villain.key, profileId: villain.profile.id, body: { body: 'more' } }),
      403,
      'profile_suspended',
    );
    expectError(
      await call('GET', `/v1/posts/${p.id}`, { token: villain.session, profileId: villain.profile.id }),
      403,
      'profile_suspended',
    );

    expectError(await call('GET', `/v1/profiles/${villain.profile.id}`), 404, 'not_found');
    expectError(await call('GET', `/v1/profiles/${villain.profile.id}/posts`), 404, 'not_found');
    expectError(await call('GET', `/v1/profiles/${villain.profile.id}/followers`), 404, 'not_found');
    expectError(await follow(alice), 404, 'not_found');
    await until('the post to read 404', () => call('GET', `/v1/posts/${p.id}`), 404);
    expectError(await call('GET', `/v1/posts/${p.id}/comments`), 404, 'not_found');
    const followers = ok(await call('GET', `/v1/profiles/${fan.profile.id}/followers`));
    expect(followers.items.map((f: any) => f.profile.id)).not.toContain(villain.profile.id);
    const comments = ok(await call('GET', `/v1/posts/${fansPost.id}/comments`));
    expect(comments.items).toHaveLength(0);
    // The fan's own comment on the villain's post stays the fan's.
    expect(c.profile_id).toBe(fan.profile.id);

    // Its webhook endpoints stop matching: an event for it goes nowhere, while one for the other
    // profile of its workspace, written after it, arrives.
    const skipped = await emitEvent(workspaceOf(villain), { profileId: villain.profile.id });
    const marker = await emitEvent(workspaceOf(villain), { profileId: sibling.id });
    const ids = () => receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
    await waitFor('the marker event', () => (ids().includes(marker) ? true : undefined));
    expect(ids()).not.toContain(skipped);
    expect(ids()).toHaveLength(2);
    await receiver.close();
  });
});
