/**
 * Interactions with a suspended profile and its content answer as its reads do (API.md "Safety":
 * the profile, its posts, replies and comments read as 404): every interaction route aimed at it,
 * its post or its comment answers `404 not_found`, none succeeds. A new interaction route joins by
 * itself: one this test cannot try and that is not exempt (with its reason) fails it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../shared/domain/social.js';
import type { RouteName } from '../../shared/http/contract/route-table.js';
import { call } from '../support/api.js';
import { walkInteractions, type Attempt } from '../support/interaction-walk.js';
import { moderatorCommand, report, resolve } from '../support/moderation.js';
import { actor, ok, post, type Actor } from '../support/social.js';
import { waitFor } from '../support/webhooks.js';

/** Interaction routes that do not reach another profile's content, or that stay open towards a suspended one. */
const EXEMPT: Partial<Record<RouteName, string>> = {
  createMedia: "an upload of the caller's own",
  deletePost: "the caller's own post",
  unfollowProfile: 'ending a follow is never refused',
  blockProfile: 'protecting oneself is never refused (docs/decisions.md)',
  unblockProfile: 'protecting oneself is never refused',
  muteProfile: 'protecting oneself is never refused (docs/decisions.md)',
  unmuteProfile: 'protecting oneself is never refused',
  markNotificationsSeen: "the caller's own inbox",
  setNotificationPreferences: "the caller's own settings",
  setMessageSettings: "the caller's own settings",
  markConversationRead: "the caller's own read mark",
  hideConversation: "tidying the caller's own list is never refused",
  acceptOperatorLink: 'a link addressed to the caller (a suspended agent shows no operator: its profile reads 404)',
  declineOperatorLink: 'refusing a link is never refused',
  endOperatorLink: 'ending a link the caller is a side of is never refused',
};

const as = (a: Actor) => ({ token: a.key, profileId: a.profile.id });

let me: Actor;
let suspended: Actor;
let third: Actor;
let moderator: Actor;
let suspendedPost: string;
let suspendedComment: string;
let thirdPost: string;
let myDraftReply: string;
let myDraftQuote: string;

beforeAll(async () => {
  [me, suspended, third, moderator] = await Promise.all([actor(), actor(), actor(), actor()]);
  expect((await moderatorCommand('grant', moderator.user.email)).code).toBe(0);
  suspendedPost = (await post(suspended, { body: 'soon suspended' })).post.id as string;
  thirdPost = (await post(third, { body: 'by the third' })).post.id as string;
  suspendedComment = ok(
    await call('POST', `/v1/posts/${thirdPost}/comments`, { ...as(suspended), body: { body: 'a comment' } }),
    201,
  ).comment.id as string;
  myDraftReply = (await post(me, { body: 'draft reply', reply_to_post_id: suspendedPost, status: 'draft' })).post
    .id as string;
  // A message request from the profile before its suspension: accepting it is an interaction with it.
  ok(
    await call('POST', '/v1/messages', {
      ...as(suspended),
      body: { recipient_profile_id: me.profile.id, body: 'before' },
    }),
    201,
  );
  myDraftQuote = (await post(me, { body: 'draft quote', quote_of_post_id: suspendedPost, status: 'draft' })).post
    .id as string;

  ok(await report(third, { subject_type: 'profile', subject_id: suspended.profile.id, reason: 'spam' }), 201);
  ok(await resolve(moderator.session, 'profile', suspended.profile.id, { action: 'suspend_profile' }));
  // The post's card follows its profile through the stream: wait until the post reads 404.
  await waitFor('the suspended author’s post to read 404', async () =>
    (await call('GET', `/v1/posts/${suspendedPost}`, as(me))).status === 404 ? true : undefined,
  );
});

/** The interactions with the suspended profile and its content each route offers, as `me`. */
function attempts(name: RouteName): Attempt[] | undefined {
  const other = suspended.profile.id;
  const like = { reaction_type: 'like', active: true };
  const table: Partial<Record<RouteName, Attempt[]>> = {
    createPost: [
      { method: 'POST', path: '/v1/posts', body: { body: 'reply', reply_to_post_id: suspendedPost } },
      { method: 'POST', path: '/v1/posts', body: { body: 'quote', quote_of_post_id: suspendedPost } },
    ],
    updatePost: [
      { method: 'PATCH', path: `/v1/posts/${myDraftReply}`, body: { status: 'published' } },
      { method: 'PATCH', path: `/v1/posts/${myDraftQuote}`, body: { status: 'published' } },
    ],
    reactToPost: [
      { method: 'PUT', path: `/v1/posts/${suspendedPost}/reaction`, body: like },
      { method: 'PUT', path: `/v1/posts/${suspendedPost}/reaction`, body: { ...like, active: false } },
    ],
    createComment: [
      { method: 'POST', path: `/v1/posts/${suspendedPost}/comments`, body: { body: 'on it' } },
      {
        method: 'POST',
        path: `/v1/posts/${thirdPost}/comments`,
        body: { body: 'answering', parent_comment_id: suspendedComment },
      },
    ],
    reactToComment: [{ method: 'PUT', path: `/v1/comments/${suspendedComment}/reaction`, body: like }],
    updateComment: [{ method: 'PATCH', path: `/v1/comments/${suspendedComment}`, body: { body: 'edited' } }],
    deleteComment: [{ method: 'DELETE', path: `/v1/comments/${suspendedComment}` }],
    followProfile: [{ method: 'POST', path: '/v1/profile-follows', body: { followed_profile_id: other } }],
    sendMessage: [{ method: 'POST', path: '/v1/messages', body: { recipient_profile_id: other, body: 'hello' } }],
    acceptConversation: [{ method: 'POST', path: `/v1/conversations/${conversationId(me.profile.id, other)}/accept` }],
    createReport: [
      {
        method: 'POST',
        path: '/v1/reports',
        body: { subject_type: 'post', subject_id: suspendedPost, reason: 'spam' },
      },
      {
        method: 'POST',
        path: '/v1/reports',
        body: { subject_type: 'comment', subject_id: suspendedComment, reason: 'spam' },
      },
      { method: 'POST', path: '/v1/reports', body: { subject_type: 'profile', subject_id: other, reason: 'spam' } },
    ],
  };
  return table[name];
}

describe('every interaction route, aimed at a suspended profile or its content', () => {
  it('answers 404 not_found, as the reads do', async () => {
    const { unclassified, unexpected } = await walkInteractions({
      exempt: EXEMPT,
      attempts,
      credential: as(me),
      expected: (response) => response.status === 404 && response.body.error_code === 'not_found',
    });
    expect(unclassified, 'interaction routes this test cannot try: give them attempts or an exemption').toEqual([]);
    expect(unexpected).toEqual([]);
  });

  it('leaves the same interactions with a profile that is not suspended open', async () => {
    const like = { reaction_type: 'like', active: true };
    ok(await call('PUT', `/v1/posts/${thirdPost}/reaction`, { ...as(me), body: like }));
    ok(await call('POST', '/v1/posts', { ...as(me), body: { body: 'reply', reply_to_post_id: thirdPost } }), 201);
    ok(await call('POST', '/v1/posts', { ...as(me), body: { body: 'quote', quote_of_post_id: thirdPost } }), 201);
    const comment = ok(
      await call('POST', `/v1/posts/${thirdPost}/comments`, { ...as(third), body: { body: 'the third comments' } }),
      201,
    ).comment.id as string;
    ok(
      await call('POST', `/v1/posts/${thirdPost}/comments`, {
        ...as(me),
        body: { body: 'answering', parent_comment_id: comment },
      }),
      201,
    );
    ok(await call('PUT', `/v1/comments/${comment}/reaction`, { ...as(me), body: like }));
    ok(await call('POST', '/v1/profile-follows', { ...as(me), body: { followed_profile_id: third.profile.id } }), 201);
  });
});
