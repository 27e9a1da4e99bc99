/**
 * Every write route of the route table leaves exactly one audit entry, with its operation id as
 * the action, the credential that called as the actor and what it wrote as the target (API.md
 * "Accountable agents"). A new write route joins by itself: one this test cannot try and that is
 * not exempt (with its reason) fails it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../shared/domain/social.js';
import { routeList, type RouteName } from '../../shared/http/contract/route-table.js';
import { call, signUp, unique, type ApiResponse } from '../support/api.js';
import { auditLog } from '../support/audit.js';
import { readyMedia } from '../support/uploads.js';
import { approvedCode, exchange, pkcePair, registerClient } from '../support/oauth.js';
import { actor, ok, type Actor } from '../support/social.js';
import { waitFor } from '../support/webhooks.js';

/** Write routes that are no workspace's write, and why. */
const EXEMPT: Partial<Record<RouteName, string>> = {
  retryWebhookDelivery:
    'needs a delivery failed for good (hours of retries); its write is the delivery item, stamped as every other (webhooks-log-and-recovery covers the route)',
  createUser: 'no credential: the caller belongs to no workspace yet',
  createSession: 'no credential',
  verifyEmail: 'no credential (a mailed token)',
  requestPasswordReset: 'no credential',
  confirmPasswordReset: 'no credential (a mailed token)',
  passkeySignInOptions: 'no credential',
  signInWithPasskey: 'no credential',
  registerOAuthClient: 'no credential (dynamic client registration)',
  issueOAuthToken: 'an OAuth client, not a credential of the workspace',
  revokeOAuthToken: 'an OAuth client, not a credential of the workspace',
  deleteSession: "the user's own account, of no workspace",
  deleteSessions: "the user's own account, of no workspace",
  changePassword: "the user's own account, of no workspace",
  resendEmailVerification: "the user's own account, of no workspace",
  changeEmail: "the user's own account, of no workspace",
  startTotp: "the user's own account, of no workspace",
  confirmTotp: "the user's own account, of no workspace",
  disableTotp: "the user's own account, of no workspace",
  endSession: "the user's own account, of no workspace",
  passkeyRegistrationOptions: "the user's own account, of no workspace",
  addPasskey: "the user's own account, of no workspace",
  deletePasskey: "the user's own account, of no workspace",
  createExport: "the user's own account, of no workspace",
  deleteMe: "the user's own account, of no workspace",
  cancelDeletion: "the user's own account, of no workspace",
  deleteProfile:
    "the profile's erasure starts at once and erases what names the profile; the erasure job is its record (docs/data-rights.md)",
  createStreamTicket: "a 60-second read ticket for the caller's own stream: it writes nothing of the workspace's",
  resolveModerationSubject: "a platform moderator's act, of no workspace",
};

interface Tried {
  response: ApiResponse;
  /** The workspace whose log lists it, when not the caller's. */
  workspaceId?: string;
  /** False when the attempt succeeds without writing anything (and so leaves no entry). */
  writes?: false;
  actor: 'session' | 'api_key' | 'oauth';
  target: { type: string; id: string };
}
type Attempt = () => Promise<Tried>;
/** The target of an attempt that failed (the walk reports its status instead). */
const NONE = { type: 'none', id: 'none' };

let me: Actor;
let other: Actor;
const asKey = (a: Actor) => ({ token: a.key, profileId: a.profile.id });
const like = { reaction_type: 'like', active: true };
const idOf = (response: ApiResponse, field: string) =>
  (response.body.data as Record<string, { id: string }>)[field]!.id;

/** The state the attempts share (made as they run, in the route table's order). */
const made: Record<string, string> = {};

beforeAll(async () => {
  [me, other] = await Promise.all([actor(), actor()]);
  made.otherPost = (
    ok(await call('POST', '/v1/posts', { ...asKey(other), body: { body: 'theirs' } }), 201).post as { id: string }
  ).id;
});

function attempts(): Partial<Record<RouteName, Attempt>> {
  const ws = () => `/v1/workspaces/${me.workspaceId}`;
  const session = async (method: string, path: string, body: unknown, target: (r: ApiResponse) => Tried['target']) => {
    const response = await call(method, path, { token: me.session, body });
    return { response, actor: 'session' as const, target: response.status < 300 ? target(response) : NONE };
  };
  const key = async (method: string, path: string, body: unknown, target: (r: ApiResponse) => Tried['target']) => {
    const response = await call(method, path, { ...asKey(me), body });
    return { response, actor: 'api_key' as const, target: response.status < 300 ? target(response) : NONE };
  };
  /** A new member of my workspace: their user id. */
  const invite = async () => {
    const invitee = await signUp();
    ok(
      await call('POST', `${ws()}/members`, { token: me.session, body: { email: invitee.email, role: 'member' } }),
      201,
    );
    return invitee.user.id;
  };
  const conversation = () => conversationId(me.profile.id, other.profile.id);
  const endpointBody = {
    name: 'walk',
    url: 'https://hooks.example.com/walk',
    event_types: ['profile.followed'],
    profile_ids: [me.profile.id],
  };
  /** An attempt on a webhook endpoint of its own, made for it. */
  const onEndpoint =
    (method: string, suffix: string, body?: unknown): Attempt =>
    async () => {
      const created = ok(
        await call('POST', `${ws()}/webhook-endpoints`, { token: me.session, body: endpointBody }),
        201,
      ).webhook_endpoint as { id: string };
      return session(method, `${ws()}/webhook-endpoints/${created.id}${suffix}`, body, () => ({
        type: 'webhook_endpoint',
        id: created.id,
      }));
    };
  return {
    createWorkspace: async () => {
      const tried = await session('POST', '/v1/workspaces', { name: unique('ws') }, (r) => ({
        type: 'workspace',
        id: idOf(r, 'workspace'),
      }));
      return { ...tried, workspaceId: tried.target.id };
    },
    addMember: async () => {
      const invitee = await signUp();
      return session('POST', `${ws()}/members`, { email: invitee.email, role: 'member' }, () => ({
        type: 'member',
        id: invitee.user.id,
      }));
    },
    removeMember: async () => {
      const member = await invite();
      return session('DELETE', `${ws()}/members/${member}`, undefined, () => ({ type: 'member', id: member }));
    },
    changeMemberRole: async () => {
      const member = await invite();
      return session('PATCH', `${ws()}/members/${member}`, { role: 'admin' }, () => ({ type: 'member', id: member }));
    },
    createApiKey: () =>
      session('POST', `${ws()}/api-keys`, { name: 'walk', scopes: ['posts:read'] }, (r) => {
        made.apiKey = idOf(r, 'api_key');
        return { type: 'api_key', id: made.apiKey };
      }),
    revokeApiKey: () =>
      session('DELETE', `${ws()}/api-keys/${made.apiKey}`, undefined, () => ({ type: 'api_key', id: made.apiKey! })),
    createProfile: () =>
      session(
        'POST',
        '/v1/profiles',
        { type: 'agent', username: unique('agent'), name: 'Walker', call_name: 'Walker', workspace_id: me.workspaceId },
        (r) => {
          made.agent = (r.body.data as { id: string }).id ?? idOf(r, 'profile');
          return { type: 'profile', id: made.agent };
        },
      ),
    updateProfile: () =>
      session('PATCH', `/v1/profiles/${me.profile.id}`, { bio: 'walking' }, () => ({
        type: 'profile',
        id: me.profile.id,
      })),
    createMedia: () =>
      key('POST', '/v1/media', { purpose: 'avatar', content_type: 'image/png', content_length: 1000 }, (r) => {
        made.media = idOf(r, 'media');
        return { type: 'media', id: made.media };
      }),
    requestOperator: () =>
      session('POST', `/v1/profiles/${made.agent}/operator`, { operator_profile_id: me.profile.id }, (r) => {
        made.link = idOf(r, 'link');
        return { type: 'operator_link', id: made.link };
      }),
    acceptOperatorLink: () =>
      key('POST', `/v1/operator-links/${made.link}/accept`, undefined, () => ({
        type: 'operator_link',
        id: made.link!,
      })),
    endOperatorLink: () =>
      key('DELETE', `/v1/operator-links/${made.link}`, undefined, () => ({ type: 'operator_link', id: made.link! })),
    declineOperatorLink: async () => {
      const agent = ok<{ id: string }>(
        await call('POST', '/v1/profiles', {
          token: me.session,
          body: { type: 'agent', username: unique('agent'), name: 'Declined', call_name: 'Declined' },
        }),
        201,
      );
      const link = ok(
        await call('POST', `/v1/profiles/${agent.id}/operator`, {
          token: me.session,
          body: { operator_profile_id: me.profile.id },
        }),
        201,
      ).link as { id: string };
      return key('POST', `/v1/operator-links/${link.id}/decline`, undefined, () => ({
        type: 'operator_link',
        id: link.id,
      }));
    },
    setProfileMedia: async () => {
      const avatar = await readyMedia(me, 'avatar');
      return key('PUT', `/v1/profiles/${me.profile.id}/media/avatar/light`, { media_id: avatar.id }, () => ({
        type: 'profile',
        id: me.profile.id,
      }));
    },
    removeProfileMedia: () =>
      key('DELETE', `/v1/profiles/${me.profile.id}/media/avatar/light`, undefined, () => ({
        type: 'profile',
        id: me.profile.id,
      })),
    createPost: () =>
      key('POST', '/v1/posts', { body: 'walked' }, (r) => {
        made.post = idOf(r, 'post');
        return { type: 'post', id: made.post };
      }),
    updatePost: () =>
      key('PATCH', `/v1/posts/${made.post}`, { body: 'walked on' }, () => ({ type: 'post', id: made.post! })),
    reactToPost: () =>
      key('PUT', `/v1/posts/${made.otherPost}/reaction`, like, () => ({ type: 'post', id: made.otherPost! })),
    createComment: () =>
      key('POST', `/v1/posts/${made.otherPost}/comments`, { body: 'a comment' }, (r) => {
        made.comment = idOf(r, 'comment');
        return { type: 'comment', id: made.comment };
      }),
    updateComment: () =>
      key('PATCH', `/v1/comments/${made.comment}`, { body: 'edited' }, () => ({ type: 'comment', id: made.comment! })),
    reactToComment: () =>
      key('PUT', `/v1/comments/${made.comment}/reaction`, like, () => ({ type: 'comment', id: made.comment! })),
    deleteComment: () =>
      key('DELETE', `/v1/comments/${made.comment}`, undefined, () => ({ type: 'comment', id: made.comment! })),
    deletePost: () => key('DELETE', `/v1/posts/${made.post}`, undefined, () => ({ type: 'post', id: made.post! })),
    followProfile: () =>
      key('POST', '/v1/profile-follows', { followed_profile_id: other.profile.id }, () => ({
        type: 'profile',
        id: other.profile.id,
      })),
    unfollowProfile: () =>
      key('DELETE', '/v1/profile-follows', { followed_profile_id: other.profile.id }, () => ({
        type: 'profile',
        id: other.profile.id,
      })),
    sendMessage: () =>
      key('POST', '/v1/messages', { recipient_profile_id: other.profile.id, body: 'hello' }, (r) => ({
        type: 'message',
        id: idOf(r, 'message'),
      })),
    acceptConversation: async () => {
      // A first message from a profile the recipient does not follow is a request until accepted.
      const stranger = await actor();
      ok(
        await call('POST', '/v1/messages', {
          ...asKey(stranger),
          body: { recipient_profile_id: me.profile.id, body: 'hi' },
        }),
        201,
      );
      const request = conversationId(me.profile.id, stranger.profile.id);
      return key('POST', `/v1/conversations/${request}/accept`, undefined, () => ({
        type: 'conversation',
        id: request,
      }));
    },
    markConversationRead: () =>
      key('POST', `/v1/conversations/${conversation()}/read`, {}, () => ({ type: 'conversation', id: conversation() })),
    hideConversation: () =>
      key('DELETE', `/v1/conversations/${conversation()}`, undefined, () => ({
        type: 'conversation',
        id: conversation(),
      })),
    setMessageSettings: () =>
      key('PUT', '/v1/messages/settings', { allow_messages_from: 'everyone' }, () => ({
        type: 'message_settings',
        id: me.profile.id,
      })),
    importRelations: async () => {
      // A profile of its own to mute: the walk's other profile is muted and unmuted by its own routes.
      const muted = (await actor()).profile.id;
      return key('POST', `/v1/profiles/${me.profile.id}/imports`, { mutes: [{ profile_id: muted }] }, () => ({
        type: 'profile',
        id: me.profile.id,
      }));
    },
    createReport: () =>
      key('POST', '/v1/reports', { subject_type: 'post', subject_id: made.otherPost, reason: 'spam' }, (r) => ({
        type: 'report',
        id: idOf(r, 'report'),
      })),
    markNotificationsSeen: () =>
      key('POST', '/v1/notifications/seen', {}, () => ({ type: 'notifications', id: me.profile.id })),
    setNotificationPreferences: () =>
      key('PUT', '/v1/notifications/preferences', { like: 'none' }, () => ({
        type: 'notification_preferences',
        id: me.profile.id,
      })),
    blockProfile: () =>
      key('POST', '/v1/profile-blocks', { blocked_profile_id: other.profile.id }, () => ({
        type: 'profile',
        id: other.profile.id,
      })),
    unblockProfile: () =>
      key('DELETE', '/v1/profile-blocks', { blocked_profile_id: other.profile.id }, () => ({
        type: 'profile',
        id: other.profile.id,
      })),
    muteProfile: () =>
      key('POST', '/v1/profile-mutes', { muted_profile_id: other.profile.id }, () => ({
        type: 'profile',
        id: other.profile.id,
      })),
    unmuteProfile: () =>
      key('DELETE', '/v1/profile-mutes', { muted_profile_id: other.profile.id }, () => ({
        type: 'profile',
        id: other.profile.id,
      })),
    createGrant: () =>
      key(
        'POST',
        '/v1/profile-access',
        { profile_id: me.profile.id, manager_profile_id: other.profile.id, permissions: ['posting'] },
        (r) => {
          made.grant = idOf(r, 'access_grant');
          return { type: 'access_grant', id: made.grant };
        },
      ),
    resendGrant: () =>
      key('POST', `/v1/profile-access/${made.grant}/resend`, undefined, () => ({
        type: 'access_grant',
        id: made.grant!,
      })),
    revokeGrant: () =>
      key('POST', `/v1/profile-access/${made.grant}/revoke`, undefined, () => ({
        type: 'access_grant',
        id: made.grant!,
      })),
    acceptGrant: async () => {
      const grant = ok(
        await call('POST', '/v1/profile-access', {
          token: other.key,
          body: { profile_id: other.profile.id, manager_profile_id: me.profile.id, permissions: ['posting'] },
        }),
        201,
      ).access_grant as { id: string };
      made.grant2 = grant.id;
      return key('POST', `/v1/profile-access/invitations/${grant.id}/accept`, undefined, () => ({
        type: 'access_grant',
        id: grant.id,
      }));
    },
    declineGrant: async () => {
      const grant = ok(
        await call('POST', '/v1/profile-access', {
          token: other.key,
          body: { profile_id: other.profile.id, manager_profile_id: me.profile.id, permissions: ['messaging'] },
        }),
        201,
      ).access_grant as { id: string };
      return key('POST', `/v1/profile-access/invitations/${grant.id}/decline`, undefined, () => ({
        type: 'access_grant',
        id: grant.id,
      }));
    },
    createWebhookEndpoint: () =>
      session('POST', `${ws()}/webhook-endpoints`, endpointBody, (r) => ({
        type: 'webhook_endpoint',
        id: idOf(r, 'webhook_endpoint'),
      })),
    updateWebhookEndpoint: onEndpoint('PATCH', '', { name: 'walked' }),
    revokeWebhookEndpoint: onEndpoint('DELETE', ''),
    // Enabling an active endpoint changes nothing (a disabled one needs hours of failures).
    enableWebhookEndpoint: async () => ({ ...(await onEndpoint('POST', '/enable')()), writes: false }),
    rotateWebhookSecret: onEndpoint('POST', '/rotate-secret'),
    testWebhookEndpoint: onEndpoint('POST', '/test'),
    // No delivery of a new endpoint has failed: nothing to recover, nothing written.
    recoverWebhookDeliveries: async () => ({
      ...(await onEndpoint('POST', '/recover', { since: new Date(Date.now() - 3_600_000).toISOString() })()),
      writes: false,
    }),
    decideAuthorizationRequest: async () => {
      const redirectUri = 'http://127.0.0.1:9/callback';
      const clientId = await registerClient([redirectUri]);
      const response = await call('POST', '/v1/oauth/authorization-requests', {
        token: me.session,
        body: {
          request: {
            response_type: 'code',
            client_id: clientId,
            redirect_uri: redirectUri,
            code_challenge: pkcePair().challenge,
            code_challenge_method: 'S256',
            scope: 'posts:read',
          },
          approve: true,
          workspace_id: me.workspaceId,
          profile_ids: [me.profile.id],
          scopes: ['posts:read'],
        },
      });
      return { response, actor: 'session', target: { type: 'oauth_client', id: clientId } };
    },
    revokeOAuthGrant: async () => {
      const approved = await approvedCode(me.session, {
        workspace_id: me.workspaceId,
        profile_ids: [me.profile.id],
        scopes: ['posts:read'],
      });
      const exchanged = await exchange(approved);
      if (exchanged.status !== 200) throw new Error(`token exchange: ${exchanged.status}`);
      const grants = ok(await call('GET', `${ws()}/oauth-grants`, { token: me.session })).items as { id: string }[];
      const grant = grants[0]!.id;
      return session('DELETE', `${ws()}/oauth-grants/${grant}`, undefined, () => ({ type: 'oauth_grant', id: grant }));
    },
  };
}

describe('every write route of the route table', () => {
  it('leaves exactly one audit entry with its action, actor and target', async () => {
    const table = attempts();
    const writes = routeList.filter((r) => r.method !== 'GET' && !(r.name in EXEMPT));
    const unclassified = writes.filter((r) => !table[r.name]).map((r) => r.name);
    expect.soft(unclassified, 'write routes this test cannot try: give them an attempt or an exemption').toEqual([]);
    const wrong: string[] = [];
    for (const route of writes) {
      const attempt = table[route.name];
      if (!attempt) continue;
      const tried = await attempt();
      if (tried.response.status >= 300) {
        wrong.push(
          `${route.name}: answered ${tried.response.status} ${tried.response.body.error_code} ${tried.response.body.error_message}`,
        );
        continue;
      }
      const requestId = tried.response.headers.get('x-request-id')!;
      const entries = await waitFor(
        `${route.name}'s entry`,
        async () => {
          const found = (await auditLog(me.session, tried.workspaceId ?? me.workspaceId)).filter(
            (e) => e.request_id === requestId,
          );
          return found.length > 0 ? found : undefined;
        },
        tried.writes === false ? 2500 : 10_000,
      ).catch(() => []);
      if (tried.writes === false) {
        if (entries.length > 0) wrong.push(`${route.name}: wrote nothing, yet listed ${entries.length}`);
        continue;
      }
      const got = entries.map((e) => `${e.action} ${e.actor.kind} ${e.target.type}:${e.target.id}`);
      const expected = `${route.name} ${tried.actor} ${tried.target.type}:${tried.target.id}`;
      if (got.length !== 1 || got[0] !== expected)
        wrong.push(`${route.name}: expected [${expected}], got [${got.join(', ')}]`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});
