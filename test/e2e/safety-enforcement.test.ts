/**
 * The contract of blocks and mutes, held against the whole route table (API.md "Safety"): every
 * read and list route, called as a blocked, a blocking and a muting profile, answers none of the
 * other profile's content; every interaction route, called across a block either way, answers
 * `403 blocked`. A new route joins by itself: one this test cannot call and that is not exempt
 * (with its reason) fails the test until it is classified here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../shared/domain/social.js';
import { routeList, type RouteName } from '../../shared/http/contract/route-table.js';
import { call, type ApiResponse } from '../support/api.js';
import { walkInteractions, type Attempt } from '../support/interaction-walk.js';
import { eventsFor } from '../support/outbox.js';
import { actor, ok, post, type Actor } from '../support/social.js';

/** Read routes that cannot carry another profile's content, or that keep it by design. */
const READS_EXEMPT: Partial<Record<RouteName, string>> = {
  health: 'no content',
  getOpenApi: 'the API description',
  listOccupations: 'a fixed taxonomy',
  listWebhookEventTypes: 'the event catalogue',
  getMe: "the caller's own user and workspaces",
  listPasskeys: "the caller's own passkeys (session only)",
  listSessions: "the caller's own sessions (session only)",
  listApiKeys: 'workspace administration (session only)',
  listWebhookEndpoints: 'workspace administration (session only)',
  listWebhookDeliveries: "the workspace's own deliveries (session only)",
  getWebhookDelivery: "the workspace's own deliveries (session only)",
  getMedia: "the caller's own uploads",
  getInvitation: 'an access grant addressed to the caller',
  listMessages:
    'the conversation the caller is a party to: its history stays readable to both; sending across a block is refused (docs/decisions.md)',
  listBlocks: "the caller's own blocks: naming the blocked profile is the point",
  listMutes: "the caller's own mutes: naming the muted profile is the point",
  listReports: "the caller's own reports: naming the reported subject is the point",
  listModerationSubjects: "the moderators' queue (moderator sessions only)",
  getUnreadNotificationCount: 'a number',
  getConversationUnreadCount: 'two numbers',
  getMessageSettings: "the caller's own settings",
  getNotificationPreferences: "the caller's own settings",
  getMcpResourceMetadata: 'OAuth metadata',
  getApiResourceMetadata: 'OAuth metadata',
  getAuthorizationServerMetadata: 'OAuth metadata',
  authorize: 'the OAuth consent page',
  getAuthorizationRequest: "an OAuth client's request: no profile's content",
  listOAuthGrants: 'workspace administration (session only)',
  getJwks: "the service's public signing key",
  listAuditLog: "the workspace's own audit log (owner or admin session)",
  getExport: "the caller's own data export (session only): its status and download link",
  listExports: "the caller's own data exports (session only)",
  streamEvents: 'an open stream: the same log and filter as listEvents, walked there',
};

/**
 * Reads that show a muted profile's content by design: a mute keeps the muted profile out of the
 * muter's streams (feed, comments, quotes, threads, search, notifications), not off its own pages.
 */
const MUTE_SHOWS: Partial<Record<RouteName, string>> = {
  getPost: 'a direct read',
  getThread: "a direct read of the post (the muted profile's replies are left out of others' threads)",
  getProfile: 'a direct read',
  listProfilePosts: "the muted profile's own page",
  listFollowers: 'a list of profiles, not their content',
  listFollowing: 'a list of profiles, not their content',
  listConversations:
    'a conversation the caller is a party to: a mute quiets streams, not direct messages (as listMessages)',
  listEvents: "the muted profile's message.created: a mute quiets streams, not direct messages (as listConversations)",
};

/** Interaction routes that do not reach another profile, or that must stay open across a block. */
const INTERACTIONS_EXEMPT: Partial<Record<RouteName, string>> = {
  createMedia: "an upload of the caller's own",
  deletePost: "the caller's own post",
  updateComment: "the caller's own comment (someone else's: 403, or 404 across a block)",
  deleteComment:
    "a comment of the caller's own or on the caller's own post: clearing a blocked profile's comment off one's post stays open",
  unfollowProfile: 'ending a follow is never refused (the block ended them already)',
  blockProfile: 'the safety routes themselves',
  unblockProfile: 'the safety routes themselves',
  muteProfile: 'the safety routes themselves',
  unmuteProfile: 'the safety routes themselves',
  createReport: 'a report reaches moderators, never the reported profile (and must stay open across a block)',
  markNotificationsSeen: "the caller's own inbox",
  setNotificationPreferences: "the caller's own settings",
  setMessageSettings: "the caller's own settings",
  markConversationRead: "the caller's own read mark (its history stays readable, as listMessages)",
  hideConversation: "tidying the caller's own list is never refused",
  createStreamTicket: "a read ticket for the caller's own event stream",
  acceptOperatorLink: 'answering a link addressed to the caller: vouching for an agent is the operator’s own choice',
  declineOperatorLink: 'answering a link addressed to the caller: refusing is never refused',
  endOperatorLink: 'ending a link the caller is a side of is never refused',
};

type Scenario = 'blocking' | 'blocked' | 'muting';

/** One viewer, the other profile, a third whose content the other joined, and what each wrote before the block. */
interface World {
  me: Actor;
  other: Actor;
  third: Actor;
  otherPost: string;
  otherComment: string;
  thirdPost: string;
  /** A reply by the third profile within the other's thread. */
  thirdReplyInOtherThread: string;
  /** A draft of mine replying to the other's post. */
  myDraftReply: string;
}

const as = (a: Actor) => ({ token: a.key, profileId: a.profile.id });

async function world(scenario: Scenario): Promise<World> {
  const [me, other, third] = await Promise.all([actor(), actor(), actor()]);
  const follow = (a: Actor, b: Actor) =>
    call('POST', '/v1/profile-follows', { ...as(a), body: { followed_profile_id: b.profile.id } });
  for (const [a, b] of [
    [me, other],
    [other, me],
    [me, third],
    [other, third],
  ] as const)
    ok(await follow(a, b), 201);
  const otherPost = (await post(other, { body: 'by the other' })).post.id as string;
  const thirdPost = (await post(third, { body: 'by the third' })).post.id as string;
  const comment = (postId: string) =>
    call('POST', `/v1/posts/${postId}/comments`, { ...as(other), body: { body: 'the other comments' } });
  const otherComment = ok(await comment(thirdPost), 201).comment.id as string;
  ok(await comment(otherPost), 201);
  await post(other, { body: 'the other quotes', quote_of_post_id: thirdPost });
  await post(other, { body: 'the other replies', reply_to_post_id: thirdPost });
  const thirdReplyInOtherThread = (await post(third, { body: 'in the thread', reply_to_post_id: otherPost })).post
    .id as string;
  const myDraftReply = (await post(me, { body: 'draft', reply_to_post_id: otherPost, status: 'draft' })).post
    .id as string;
  ok(
    await call('POST', '/v1/messages', { ...as(other), body: { recipient_profile_id: me.profile.id, body: 'hi' } }),
    201,
  );

  const [path, actorOf, target] =
    scenario === 'muting'
      ? ['/v1/profile-mutes', me, { muted_profile_id: other.profile.id }]
      : [
          '/v1/profile-blocks',
          scenario === 'blocking' ? me : other,
          {
            blocked_profile_id: (scenario === 'blocking' ? other : me).profile.id,
          },
        ];
  ok(await call('POST', path, { ...as(actorOf), body: target }), 201);
  return { me, other, third, otherPost, otherComment, thirdPost, thirdReplyInOtherThread, myDraftReply };
}

const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** Every way to call a read route as `me`: its path parameters filled with the other's and the third's ids. */
function readCalls(w: World, path: string): string[] | undefined {
  // Search needs a query: the other profile by name, and its posts by author.
  if (path === '/v1/search/profiles') return [`${path}?q=${w.other.profile.username}&limit=100`];
  if (path === '/v1/search/posts') return [`${path}?author_profile_id=${w.other.profile.id}&limit=100`];
  const values: Record<string, string[]> = {
    post_id: [w.otherPost, w.thirdPost, w.thirdReplyInOtherThread],
    comment_id: [w.otherComment],
    profile_id: [w.other.profile.id, w.third.profile.id],
  };
  let paths = [path];
  for (const name of pathParams(path)) {
    const options = values[name];
    if (!options) return undefined;
    paths = paths.flatMap((p) => options.map((v) => p.replace(`{${name}}`, v)));
  }
  return paths.map((p) => `${p}?limit=100`);
}

const carries = (response: ApiResponse, profileId: string) => JSON.stringify(response.body).includes(profileId);

describe.each<Scenario>(['blocking', 'blocked', 'muting'])(
  'every read and list route, as the %s profile',
  (scenario) => {
    let w: World;
    beforeAll(async () => {
      w = await world(scenario);
    });

    it("answers none of the other profile's content (a direct read of it: 404)", async () => {
      const reads = routeList.filter((r) => r.method === 'GET' && !(r.name in READS_EXEMPT));
      const unclassified: string[] = [];
      const leaks: string[] = [];
      for (const route of reads) {
        if (scenario === 'muting' && route.name in MUTE_SHOWS) continue;
        const paths = readCalls(w, route.path);
        if (!paths) {
          unclassified.push(route.name);
          continue;
        }
        for (const path of paths) {
          const response = await call('GET', path, as(w.me));
          if (![200, 404].includes(response.status)) unclassified.push(`${route.name} ${path}: ${response.status}`);
          if (carries(response, w.other.profile.id)) leaks.push(`${route.name} ${path}`);
        }
      }
      expect(unclassified, 'routes this test cannot call: give them values or an exemption with its reason').toEqual(
        [],
      );
      expect(leaks).toEqual([]);
    });

    it('answers a direct read of the other profile, its post and its posts 404 across a block (a mute leaves them)', async () => {
      const expected = scenario === 'muting' ? 200 : 404;
      for (const path of [
        `/v1/profiles/${w.other.profile.id}`,
        `/v1/posts/${w.otherPost}`,
        `/v1/profiles/${w.other.profile.id}/posts`,
        `/v1/posts/${w.otherPost}/comments`,
      ])
        expect((await call('GET', path, as(w.me))).status, path).toBe(expected);
    });

    it('leaves anonymous reads unchanged', async () => {
      expect(ok(await call('GET', `/v1/posts/${w.otherPost}`)).post.id).toBe(w.otherPost);
      const comments = ok(await call('GET', `/v1/posts/${w.thirdPost}/comments`));
      expect(comments.items.map((i: any) => i.profile.id)).toContain(w.other.profile.id);
    });
  },
);

describe.each<Exclude<Scenario, 'muting'>>(['blocked', 'blocking'])(
  'every interaction route, as the %s profile',
  (scenario) => {
    let w: World;
    beforeAll(async () => {
      w = await world(scenario);
    });

    /** The interactions with the other profile each route offers, as `me`. */
    const attempts = (name: RouteName): Attempt[] | undefined => {
      const other = w.other.profile.id;
      const table: Partial<Record<RouteName, Attempt[]>> = {
        createPost: [
          { method: 'POST', path: '/v1/posts', body: { body: 'reply', reply_to_post_id: w.otherPost } },
          { method: 'POST', path: '/v1/posts', body: { body: 'within', reply_to_post_id: w.thirdReplyInOtherThread } },
          { method: 'POST', path: '/v1/posts', body: { body: 'quote', quote_of_post_id: w.otherPost } },
        ],
        updatePost: [{ method: 'PATCH', path: `/v1/posts/${w.myDraftReply}`, body: { status: 'published' } }],
        reactToPost: [
          { method: 'PUT', path: `/v1/posts/${w.otherPost}/reaction`, body: { reaction_type: 'like', active: true } },
        ],
        createComment: [
          { method: 'POST', path: `/v1/posts/${w.otherPost}/comments`, body: { body: 'on it' } },
          { method: 'POST', path: `/v1/posts/${w.thirdReplyInOtherThread}/comments`, body: { body: 'under it' } },
          {
            method: 'POST',
            path: `/v1/posts/${w.thirdPost}/comments`,
            body: { body: 'answering', parent_comment_id: w.otherComment },
          },
        ],
        reactToComment: [
          {
            method: 'PUT',
            path: `/v1/comments/${w.otherComment}/reaction`,
            body: { reaction_type: 'like', active: true },
          },
        ],
        followProfile: [{ method: 'POST', path: '/v1/profile-follows', body: { followed_profile_id: other } }],
        sendMessage: [{ method: 'POST', path: '/v1/messages', body: { recipient_profile_id: other, body: 'hello' } }],
        acceptConversation: [
          { method: 'POST', path: `/v1/conversations/${conversationId(w.me.profile.id, other)}/accept` },
        ],
      };
      return table[name];
    };

    it('answers 403 blocked', async () => {
      const { unclassified, unexpected } = await walkInteractions({
        exempt: INTERACTIONS_EXEMPT,
        attempts,
        credential: as(w.me),
        expected: (response) => response.body.error_code === 'blocked',
      });
      expect(unclassified, 'interaction routes this test cannot try: give them attempts or an exemption').toEqual([]);
      expect(unexpected).toEqual([]);
    });

    it('creates a post that mentions the other profile, with no mention event for it', async () => {
      const created = await post(w.me, { body: `hello @${w.other.profile.username}` });
      const events = await eventsFor([w.other.profile.id]);
      expect(events.filter((e) => e.type === 'post.mention' && e.data.post?.id === created.post.id)).toEqual([]);
    });
  },
);
