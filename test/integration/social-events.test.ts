import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { eventsFor } from '../support/outbox.js';
import { actor, ok, post, type Actor } from '../support/social.js';

/** Each test uses its own profiles, so the events it reads back are its own. */
const pair = () => Promise.all([actor(), actor()]);
const types = (events: { type: string }[]) => events.map((e) => e.type).sort();
const comment = async (a: Actor, postId: string, body: Record<string, unknown>) =>
  ok(await call('POST', `/v1/posts/${postId}/comments`, { token: a.key, profileId: a.profile.id, body }), 201).comment;

describe('social events in the outbox', () => {
  it('post.mention goes to each mentioned existing profile, never to the author; drafts notify when published', async () => {
    const [alice, bob] = await pair();
    const carol = await actor();
    const { post: p } = await post(alice, {
      body: `hi @${bob.profile.username}, @${alice.profile.username} and @nobody_${Date.now()} and @${carol.profile.username.toUpperCase()}!`,
    });
    const events = await eventsFor([alice.profile.id, bob.profile.id, carol.profile.id]);
    expect(events.filter((e) => e.profile_id === alice.profile.id)).toEqual([]);
    const toBob = events.find((e) => e.profile_id === bob.profile.id)!;
    expect(toBob).toMatchObject({ type: 'post.mention', workspace_id: bob.workspaceId });
    expect(toBob.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(toBob.data.post).toMatchObject({ id: p.id, body: p.body, viewer_reaction: null });
    expect(toBob.data.profile).toMatchObject({ id: alice.profile.id, username: alice.profile.username });
    expect(events.find((e) => e.profile_id === carol.profile.id)?.type).toBe('post.mention');

    // a draft mentions nobody until it is published
    const [dave, erin] = await pair();
    const { post: draft } = await post(dave, { body: `draft for @${erin.profile.username}`, status: 'draft' });
    expect(await eventsFor([erin.profile.id])).toEqual([]);
    ok(
      await call('PATCH', `/v1/posts/${draft.id}`, {
        token: dave.key,
        profileId: dave.profile.id,
        body: { status: 'published' },
      }),
    );
    const published = await eventsFor([erin.profile.id, dave.profile.id]);
    expect(published.map((e) => [e.type, e.profile_id])).toEqual([['post.mention', erin.profile.id]]);
    expect(published[0]!.data.post).toMatchObject({ id: draft.id, status: 'published' });
  });

  it("post.reply goes to the parent post's author, not when replying to yourself", async () => {
    const [alice, bob] = await pair();
    const { post: root } = await post(alice, { body: 'root' });
    const { post: reply } = await post(bob, { body: 'a reply', reply_to_post_id: root.id });
    await post(alice, { body: 'self reply', reply_to_post_id: root.id });
    await post(bob, { body: 'bob replies to himself', reply_to_post_id: reply.id });
    const events = await eventsFor([alice.profile.id, bob.profile.id]);
    expect(events.map((e) => [e.type, e.profile_id])).toEqual([['post.reply', alice.profile.id]]);
    expect(events[0]).toMatchObject({ workspace_id: alice.workspaceId });
    expect(events[0]!.data.post).toMatchObject({ id: reply.id, kind: 'reply', reply_to_post_id: root.id });
    expect(events[0]!.data.profile.id).toBe(bob.profile.id);
  });

  it("post.quoted goes to the quoted post's author when the quote is published, not when quoting yourself", async () => {
    const [alice, bob] = await pair();
    const { post: original } = await post(alice, { body: 'original' });
    const { post: quote } = await post(bob, { body: 'look at this', quote_of_post_id: original.id });
    await post(alice, { body: 'quoting myself', quote_of_post_id: original.id });
    const { post: draft } = await post(bob, { body: 'later', quote_of_post_id: original.id, status: 'draft' });
    let events = await eventsFor([alice.profile.id, bob.profile.id]);
    expect(events.map((e) => [e.type, e.profile_id])).toEqual([['post.quoted', alice.profile.id]]);
    expect(events[0]).toMatchObject({ workspace_id: alice.workspaceId });
    expect(events[0]!.data).toMatchObject({
      post: { id: quote.id, kind: 'post', quoted_post_id: original.id, viewer_reaction: null },
      profile: { id: bob.profile.id },
      quoted_post_id: original.id,
    });

    // a draft quote notifies when it is published
    ok(
      await call('PATCH', `/v1/posts/${draft.id}`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { status: 'published' },
      }),
    );
    events = await eventsFor([alice.profile.id, bob.profile.id]);
    expect(events.map((e) => [e.type, e.profile_id])).toEqual([
      ['post.quoted', alice.profile.id],
      ['post.quoted', alice.profile.id],
    ]);
    expect(events[1]!.data.post).toMatchObject({ id: draft.id, status: 'published' });
  });

  it("comment.created to the post's author, comment.reply to the parent comment's author, none to the commenter", async () => {
    const [alice, bob] = await pair();
    const { post: p } = await post(alice, { body: 'post' });
    const top = await comment(bob, p.id, { body: 'top' }); // → alice: comment.created
    await comment(alice, p.id, { body: 'own post' }); // none
    const reply = await comment(alice, p.id, { body: 'reply', parent_comment_id: top.id }); // → bob: comment.reply
    await comment(bob, p.id, { body: 'own comment', parent_comment_id: top.id }); // none (bob replies to bob)
    await comment(bob, p.id, { body: 'reply to alice', parent_comment_id: reply.id }); // → alice: comment.reply
    const events = await eventsFor([alice.profile.id, bob.profile.id]);
    expect(events.map((e) => [e.type, e.profile_id])).toEqual([
      ['comment.created', alice.profile.id],
      ['comment.reply', bob.profile.id],
      ['comment.reply', alice.profile.id],
    ]);
    expect(events[0]!.data).toMatchObject({
      comment: { id: top.id, parent_comment_id: null },
      post: { id: p.id },
      profile: { id: bob.profile.id },
    });
    expect(events[1]!.data).toMatchObject({
      comment: { id: reply.id, parent_comment_id: top.id },
      parent_comment: { id: top.id },
      profile: { id: alice.profile.id },
    });
    expect(events[1]!.workspace_id).toBe(bob.workspaceId);
  });

  it('message.created to the recipient; profile.followed once per new follow', async () => {
    const [alice, bob] = await pair();
    const follow = () =>
      call('POST', '/v1/profile-follows', {
        token: bob.key,
        profileId: bob.profile.id,
        body: { followed_profile_id: alice.profile.id },
      });
    // Bob follows Alice first: her message lands in his inbox (from a stranger: in requests, with no event).
    ok(await follow(), 201);
    const { message } = ok(
      await call('POST', '/v1/messages', {
        token: alice.key,
        profileId: alice.profile.id,
        body: { recipient_profile_id: bob.profile.id, body: 'hello' },
      }),
      201,
    );
    ok(await follow(), 201); // repeat: no second event
    const events = await eventsFor([alice.profile.id, bob.profile.id]);
    expect(events.map((e) => [e.type, e.profile_id])).toEqual([
      ['profile.followed', alice.profile.id],
      ['message.created', bob.profile.id],
    ]);
    expect(events[1]).toMatchObject({
      workspace_id: bob.workspaceId,
      data: { message: { id: message.id, body: 'hello' }, profile: { id: alice.profile.id } },
    });
    expect(events[0]).toMatchObject({
      workspace_id: alice.workspaceId,
      data: { profile: { id: bob.profile.id }, followed_profile: { id: alice.profile.id } },
    });
  });

  it('no message.created for a message that lands in requests', async () => {
    const [alice, bob] = await pair();
    ok(
      await call('POST', '/v1/messages', {
        token: alice.key,
        profileId: alice.profile.id,
        body: { recipient_profile_id: bob.profile.id, body: 'hello stranger' },
      }),
      201,
    );
    expect(await eventsFor([bob.profile.id])).toEqual([]);
  });

  it('access_grant.accepted to the managed profile, in its workspace', async () => {
    const [alice, bob] = await pair();
    const { access_grant: grant } = ok(
      await call('POST', '/v1/profile-access', {
        token: alice.key,
        body: { profile_id: alice.profile.id, manager_profile_id: bob.profile.id, permissions: ['posting'] },
      }),
      201,
    );
    expect(await eventsFor([alice.profile.id, bob.profile.id])).toEqual([]);
    ok(await call('POST', `/v1/profile-access/invitations/${grant.id}/accept`, { token: bob.key }));
    const events = await eventsFor([alice.profile.id, bob.profile.id]);
    expect(events.map((e) => [e.type, e.profile_id, e.workspace_id])).toEqual([
      ['access_grant.accepted', alice.profile.id, alice.workspaceId],
    ]);
    expect(events[0]!.data).toMatchObject({
      access_grant: { id: grant.id, status: 'accepted', manager_profile: { id: bob.profile.id } },
      managed_profile: { id: alice.profile.id },
    });
    expect(events[0]!.data.access_grant.accepted_at).not.toBeNull();
  });

  it('GET /v1/webhook-event-types lists the catalogue', async () => {
    const { items } = ok(await call('GET', '/v1/webhook-event-types'));
    expect(items.map((i: any) => i.type).sort()).toEqual(
      [
        'access_grant.accepted',
        'comment.created',
        'comment.deleted',
        'comment.reply',
        'message.created',
        'post.mention',
        'post.deleted',
        'post.quoted',
        'post.reply',
        'profile.deleted',
        'profile.followed',
        'webhook_delivery.exhausted',
        'webhook_endpoint.disabled',
      ].sort(),
    );
    for (const item of items) expect(item.description.length).toBeGreaterThan(10);
  });
});

// A refused change writes no event either (the event shares the change's transaction).
describe('no event without its change', () => {
  it('a comment on a removed post leaves no comment.created behind', async () => {
    const [alice, bob] = await pair();
    const { post: p } = await post(alice, { body: 'soon gone' });
    ok(await call('DELETE', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id }));
    const refused = await call('POST', `/v1/posts/${p.id}/comments`, {
      token: bob.key,
      profileId: bob.profile.id,
      body: { body: 'late' },
    });
    expect(refused.status).toBe(404);
    expect(types(await eventsFor([alice.profile.id]))).toEqual([]);
  });
});
