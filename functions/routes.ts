/**
 * THE route table. The CDK stack makes one Lambda and one API Gateway route of each entry; the
 * local server dispatches from it; the OpenAPI document is generated from it. Each handler module
 * exports `handler = httpHandler(routes.<name>, …)`.
 */
import { z } from 'zod';
import { defineRoute } from '../shared/http/route.js';
import { NoParams, PageQuery, page } from '../shared/http/schemas/common.js';
import {
  AddMemberBody,
  ApiKey,
  ApiKeyParams,
  CreateApiKeyBody,
  CreateSessionBody,
  CreateUserBody,
  CreateWorkspaceBody,
  Me,
  Member,
  Session,
  User,
  Workspace,
  WorkspaceParams,
} from '../shared/http/schemas/identity.js';
import { CreateProfileBody, Occupation, Profile, ProfileIdParams, UpdateProfileBody } from '../shared/http/schemas/profiles.js';
import { Health } from '../shared/http/schemas/system.js';
// --- social content (issue 3) ---
import { CommentIdParams, CommentReactionResult, CommentWithProfile, CreateCommentBody } from '../shared/http/schemas/comments.js';
import { WebhookEventTypes } from '../shared/http/schemas/events.js';
import { FollowBody, FollowListItem, FollowResult, UnfollowResult } from '../shared/http/schemas/follows.js';
import { CreateGrantBody, GrantIdParams, GrantResult, Invitation } from '../shared/http/schemas/grants.js';
import { ListMessagesQuery, Message, SendMessageBody } from '../shared/http/schemas/messages.js';
import { CreatePostBody, PostIdParams, PostReactionResult, PostWithProfile, ReactionBody, UpdatePostBody } from '../shared/http/schemas/posts.js';
// --- end social content imports ---
// --- webhooks (issue 4) imports ---
import {
  CreateWebhookEndpointBody,
  SigningSecret,
  UpdateWebhookEndpointBody,
  WebhookActivity,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointParams,
  WebhookTestResult,
} from '../shared/http/schemas/webhooks.js';
// --- end webhooks imports ---

export const routes = {
  health: defineRoute({
    method: 'GET', path: '/v1/health', handler: 'system/health', tag: 'System',
    summary: 'Liveness check.', auth: 'none', status: 200, response: Health, errors: [],
  }),
  getOpenApi: defineRoute({
    method: 'GET', path: '/v1/openapi.json', handler: 'system/get-openapi', tag: 'System',
    summary: 'This OpenAPI 3.1 document (not wrapped in the envelope).', auth: 'none', status: 200, raw: true,
    response: z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' }), errors: [],
  }),

  createUser: defineRoute({
    method: 'POST', path: '/v1/users', handler: 'identity/create-user', tag: 'Identity',
    summary: 'Sign up: creates a user and a personal workspace owned by it.',
    auth: 'none', body: CreateUserBody, status: 201,
    response: z.object({ user: User, workspace: Workspace }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'email_taken'],
  }),
  createSession: defineRoute({
    method: 'POST', path: '/v1/sessions', handler: 'identity/create-session', tag: 'Identity',
    summary: 'Log in: returns a session token (st_…) valid for 30 days.',
    auth: 'none', body: CreateSessionBody, status: 201,
    response: z.object({ session: Session, user: User }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'invalid_credentials'],
  }),
  deleteSession: defineRoute({
    method: 'DELETE', path: '/v1/sessions/current', handler: 'identity/delete-session', tag: 'Identity',
    summary: 'Log out: the session token stops working at once.',
    auth: 'session', status: 200, response: z.object({ logged_out: z.literal(true) }),
    errors: ['unauthorized', 'session_required'],
  }),
  getMe: defineRoute({
    method: 'GET', path: '/v1/me', handler: 'identity/get-me', tag: 'Identity',
    summary: 'The session user and the workspaces they belong to, with their role in each.',
    auth: 'session', status: 200, response: Me, errors: ['unauthorized', 'session_required'],
  }),
  createWorkspace: defineRoute({
    method: 'POST', path: '/v1/workspaces', handler: 'workspaces/create-workspace', tag: 'Workspaces',
    summary: 'Creates a workspace owned by the caller.',
    auth: 'session', body: CreateWorkspaceBody, status: 201, response: z.object({ workspace: Workspace }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'session_required'],
  }),
  addMember: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/members', handler: 'workspaces/add-member', tag: 'Workspaces',
    summary: 'Adds an existing user to the workspace as admin or member (owner/admin session).',
    auth: 'session', params: WorkspaceParams, body: AddMemberBody, status: 201, response: z.object({ member: Member }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'session_required', 'forbidden', 'not_found', 'invalid_state'],
  }),
  createApiKey: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/api-keys', handler: 'workspaces/create-api-key', tag: 'API keys',
    summary: 'Creates an API key; the full key (sk_…) is returned only in this response.',
    auth: 'session', params: WorkspaceParams, body: CreateApiKeyBody, status: 201,
    response: z.object({ api_key: ApiKey, key: z.string() }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'session_required', 'forbidden'],
  }),
  listApiKeys: defineRoute({
    method: 'GET', path: '/v1/workspaces/{workspace_id}/api-keys', handler: 'workspaces/list-api-keys', tag: 'API keys',
    summary: 'Lists the workspace API keys, newest first (never the secret).',
    auth: 'session', params: WorkspaceParams, query: PageQuery, status: 200, response: page(ApiKey),
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden'],
  }),
  revokeApiKey: defineRoute({
    method: 'DELETE', path: '/v1/workspaces/{workspace_id}/api-keys/{api_key_id}', handler: 'workspaces/revoke-api-key', tag: 'API keys',
    summary: 'Revokes an API key at once; revoking again is harmless.',
    auth: 'session', params: ApiKeyParams, status: 200, response: z.object({ api_key: ApiKey }),
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden', 'not_found'],
  }),

  createProfile: defineRoute({
    method: 'POST', path: '/v1/profiles', handler: 'profiles/create-profile', tag: 'Profiles',
    summary: 'Creates a human, company or agent profile.',
    description:
      'With a session the profile goes into `workspace_id` (default: your personal workspace). With an API key ' +
      '(scope profiles:write) it goes into the key\'s workspace and is attached to the key.',
    auth: 'credential', scope: 'profiles:write', body: CreateProfileBody, status: 201, response: Profile,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'forbidden', 'username_taken'],
  }),
  getProfile: defineRoute({
    method: 'GET', path: '/v1/profiles/{profile_id}', handler: 'profiles/get-profile', tag: 'Profiles',
    summary: 'Reads a profile (public).', auth: 'none', params: ProfileIdParams, status: 200, response: Profile,
    errors: ['invalid_request', 'unauthorized', 'not_found'],
  }),
  updateProfile: defineRoute({
    method: 'PATCH', path: '/v1/profiles/{profile_id}', handler: 'profiles/update-profile', tag: 'Profiles',
    summary: 'Edits a profile you may act as.',
    auth: 'credential', scope: 'profiles:write', params: ProfileIdParams, body: UpdateProfileBody, status: 200, response: Profile,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  listOccupations: defineRoute({
    method: 'GET', path: '/v1/taxonomies/profile-options/occupations', handler: 'profiles/list-occupations', tag: 'Profiles',
    summary: 'The occupations a profile can select (public).', auth: 'none', params: NoParams, status: 200,
    response: z.array(Occupation), errors: ['unauthorized'],
  }),

  // --- social content (issue 3) ---
  createPost: defineRoute({
    method: 'POST', path: '/v1/posts', handler: 'posts/create-post', tag: 'Posts',
    summary: 'Publishes a post or reply, or saves a draft, as the acting profile.',
    description:
      'A reply (reply_to_post_id of a published post; else 404) has kind `reply`, root_post_id of the thread, and bumps ' +
      "the parent's reply_count once published. Up to 4 images (https URL, width/height >= 1). Publishing sends post.mention " +
      'to each @mentioned existing profile and post.reply to the parent post\'s author (never to the author).',
    auth: 'credential', scope: 'posts:write', actingProfile: { required: true, permission: 'posting' },
    body: CreatePostBody, status: 201, response: PostWithProfile,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  updatePost: defineRoute({
    method: 'PATCH', path: '/v1/posts/{post_id}', handler: 'posts/update-post', tag: 'Posts',
    summary: 'Edits the body of your post and/or publishes your draft.',
    description: "Author only (403 forbidden on someone else's published post; 404 on their drafts). A removed post cannot be edited (409 invalid_state).",
    auth: 'credential', scope: 'posts:write', actingProfile: { required: true, permission: 'posting' },
    params: PostIdParams, body: UpdatePostBody, status: 200, response: PostWithProfile,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'forbidden', 'not_found', 'invalid_state'],
  }),
  deletePost: defineRoute({
    method: 'DELETE', path: '/v1/posts/{post_id}', handler: 'posts/delete-post', tag: 'Posts',
    summary: 'Removes your post (status `removed`); it then reads as 404 to everyone else. Idempotent.',
    auth: 'credential', scope: 'posts:write', actingProfile: { required: true, permission: 'posting' },
    params: PostIdParams, status: 200, response: PostWithProfile,
    errors: ['invalid_request', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'forbidden', 'not_found', 'invalid_state'],
  }),
  getPost: defineRoute({
    method: 'GET', path: '/v1/posts/{post_id}', handler: 'posts/get-post', tag: 'Posts',
    summary: 'Reads a public post and its author.',
    description:
      'Public. With a valid credential and X-Profile-Id, viewer_reaction is that profile\'s reaction; drafts and removed posts ' +
      'are visible only this way to their author (404 to everyone else).',
    auth: 'none', actingProfile: { required: false }, params: PostIdParams, status: 200, response: PostWithProfile,
    errors: ['invalid_request', 'unauthorized', 'profile_not_permitted', 'not_found'],
  }),
  listProfilePosts: defineRoute({
    method: 'GET', path: '/v1/profiles/{profile_id}/posts', handler: 'posts/list-profile-posts', tag: 'Posts',
    summary: "A profile's published posts and replies, newest first (public, paginated).",
    auth: 'none', actingProfile: { required: false }, params: ProfileIdParams, query: PageQuery, status: 200, response: page(PostWithProfile),
    errors: ['invalid_request', 'unauthorized', 'profile_not_permitted', 'not_found'],
  }),
  reactToPost: defineRoute({
    method: 'PUT', path: '/v1/posts/{post_id}/reaction', handler: 'posts/react-to-post', tag: 'Posts',
    summary: "Sets (active: true) or removes (active: false) the acting profile's like on a published post.",
    description: 'Idempotent; likes_count is exact under any concurrency (one conditional transaction per change).',
    auth: 'credential', scope: 'posts:write', actingProfile: { required: true, permission: 'reacting' },
    params: PostIdParams, body: ReactionBody, status: 200, response: PostReactionResult,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  createComment: defineRoute({
    method: 'POST', path: '/v1/posts/{post_id}/comments', handler: 'comments/create-comment', tag: 'Comments',
    summary: 'Comments on a published post, or replies to one of its comments (any depth).',
    description:
      'A parent_comment_id of another post is 400 invalid_request; an unknown one 404. Sends comment.created to the post\'s ' +
      'author (top level) or comment.reply to the parent comment\'s author, never to the commenter.',
    auth: 'credential', scope: 'comments:write', actingProfile: { required: true, permission: 'commenting' },
    params: PostIdParams, body: CreateCommentBody, status: 201, response: CommentWithProfile,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  listComments: defineRoute({
    method: 'GET', path: '/v1/posts/{post_id}/comments', handler: 'comments/list-comments', tag: 'Comments',
    summary: 'Comments and nested replies of a published post, oldest first (public, paginated).',
    description: 'Each comment carries parent_comment_id (null at top level); with a credential and X-Profile-Id, viewer_reaction.',
    auth: 'none', actingProfile: { required: false }, params: PostIdParams, query: PageQuery, status: 200, response: page(CommentWithProfile),
    errors: ['invalid_request', 'unauthorized', 'profile_not_permitted', 'not_found'],
  }),
  reactToComment: defineRoute({
    method: 'PUT', path: '/v1/comments/{comment_id}/reaction', handler: 'comments/react-to-comment', tag: 'Comments',
    summary: "Sets or removes the acting profile's like on a comment (idempotent; reactions_count exact).",
    auth: 'credential', scope: 'comments:write', actingProfile: { required: true, permission: 'reacting' },
    params: CommentIdParams, body: ReactionBody, status: 200, response: CommentReactionResult,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  followProfile: defineRoute({
    method: 'POST', path: '/v1/profile-follows', handler: 'follows/follow-profile', tag: 'Follows',
    summary: 'The acting profile follows another profile (idempotent; profile.followed on a new follow).',
    auth: 'credential', scope: 'follows:write', actingProfile: { required: true, permission: 'following' },
    body: FollowBody, status: 201, response: FollowResult,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  unfollowProfile: defineRoute({
    method: 'DELETE', path: '/v1/profile-follows', handler: 'follows/unfollow-profile', tag: 'Follows',
    summary: 'The acting profile stops following a profile; unfollowed is false when there was no follow.',
    auth: 'credential', scope: 'follows:write', actingProfile: { required: true, permission: 'following' },
    body: FollowBody, status: 200, response: UnfollowResult,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted'],
  }),
  listFollowers: defineRoute({
    method: 'GET', path: '/v1/profiles/{profile_id}/followers', handler: 'follows/list-followers', tag: 'Follows',
    summary: 'Profiles that follow the profile, most recent follow first (public, paginated).',
    auth: 'none', params: ProfileIdParams, query: PageQuery, status: 200, response: page(FollowListItem),
    errors: ['invalid_request', 'unauthorized', 'not_found'],
  }),
  listFollowing: defineRoute({
    method: 'GET', path: '/v1/profiles/{profile_id}/following', handler: 'follows/list-following', tag: 'Follows',
    summary: 'Profiles the profile follows, most recent follow first (public, paginated).',
    auth: 'none', params: ProfileIdParams, query: PageQuery, status: 200, response: page(FollowListItem),
    errors: ['invalid_request', 'unauthorized', 'not_found'],
  }),
  sendMessage: defineRoute({
    method: 'POST', path: '/v1/messages', handler: 'messages/send-message', tag: 'Messages',
    summary: 'Sends a direct message from the acting profile (message.created to the recipient).',
    auth: 'credential', scope: 'messages:write', actingProfile: { required: true, permission: 'messaging' },
    body: SendMessageBody, status: 201, response: z.object({ message: Message }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  listMessages: defineRoute({
    method: 'GET', path: '/v1/messages', handler: 'messages/list-messages', tag: 'Messages',
    summary: 'The conversation of the acting profile with with_profile_id, both directions, newest first (paginated).',
    auth: 'credential', scope: 'messages:read', actingProfile: { required: true, permission: 'messaging' },
    query: ListMessagesQuery, status: 200, response: page(Message),
    errors: ['invalid_request', 'unauthorized', 'insufficient_scope', 'profile_not_permitted'],
  }),
  createGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access', handler: 'profile-access/create-grant', tag: 'Profile access',
    summary: 'Invites a manager profile to manage your profile with the given permissions (status pending).',
    description: 'By an owner/admin session of the managed profile\'s workspace, or an API key with the managed profile attached.',
    auth: 'credential', scope: 'profile_access:write', body: CreateGrantBody, status: 201, response: GrantResult,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  getInvitation: defineRoute({
    method: 'GET', path: '/v1/profile-access/invitations/{grant_id}', handler: 'profile-access/get-invitation', tag: 'Profile access',
    summary: 'Reads an invitation (the invited side or the managed side; 404 to anyone else).',
    auth: 'credential', scope: 'profile_access:read', params: GrantIdParams, status: 200, response: Invitation,
    errors: ['invalid_request', 'unauthorized', 'insufficient_scope', 'not_found'],
  }),
  acceptGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access/invitations/{grant_id}/accept', handler: 'profile-access/accept-grant', tag: 'Profile access',
    summary: 'The invited side accepts a pending invitation (access_grant.accepted to the managed profile).',
    description: 'The managed side gets 403 forbidden; a grant that is not pending 409 invalid_state.',
    auth: 'credential', scope: 'profile_access:write', params: GrantIdParams, status: 200, response: GrantResult,
    errors: ['invalid_request', 'unauthorized', 'insufficient_scope', 'forbidden', 'not_found', 'invalid_state'],
  }),
  declineGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access/invitations/{grant_id}/decline', handler: 'profile-access/decline-grant', tag: 'Profile access',
    summary: 'The invited side declines a pending invitation.',
    auth: 'credential', scope: 'profile_access:write', params: GrantIdParams, status: 200, response: GrantResult,
    errors: ['invalid_request', 'unauthorized', 'insufficient_scope', 'forbidden', 'not_found', 'invalid_state'],
  }),
  resendGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access/{grant_id}/resend', handler: 'profile-access/resend-grant', tag: 'Profile access',
    summary: 'The managed side resends a pending invitation (recorded in resent_at and resend_count).',
    auth: 'credential', scope: 'profile_access:write', params: GrantIdParams, status: 200, response: GrantResult,
    errors: ['invalid_request', 'unauthorized', 'insufficient_scope', 'forbidden', 'not_found', 'invalid_state'],
  }),
  revokeGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access/{grant_id}/revoke', handler: 'profile-access/revoke-grant', tag: 'Profile access',
    summary: 'The managed side revokes a pending or accepted grant; acting through it stops at once.',
    auth: 'credential', scope: 'profile_access:write', params: GrantIdParams, status: 200, response: GrantResult,
    errors: ['invalid_request', 'unauthorized', 'insufficient_scope', 'forbidden', 'not_found', 'invalid_state'],
  }),
  listWebhookEventTypes: defineRoute({
    method: 'GET', path: '/v1/webhook-event-types', handler: 'events/list-event-types', tag: 'Webhooks',
    summary: 'The event types a webhook endpoint can subscribe to, with what causes each (public).',
    auth: 'none', params: NoParams, status: 200, response: WebhookEventTypes, errors: ['unauthorized'],
  }),
  // --- end social content (issue 3) ---

  // --- webhooks (issue 4) ---
  createWebhookEndpoint: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/webhook-endpoints', handler: 'webhooks/create-webhook-endpoint', tag: 'Webhooks',
    summary: 'Creates a webhook endpoint; the signing secret (whsec_…) is returned only in this response.',
    description: 'Owner/admin session only. The endpoint receives the selected event types for the selected profiles of this workspace.',
    auth: 'session', params: WorkspaceParams, body: CreateWebhookEndpointBody, status: 201,
    response: z.object({ webhook_endpoint: WebhookEndpoint, secret: SigningSecret }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'session_required', 'forbidden'],
  }),
  listWebhookEndpoints: defineRoute({
    method: 'GET', path: '/v1/workspaces/{workspace_id}/webhook-endpoints', handler: 'webhooks/list-webhook-endpoints', tag: 'Webhooks',
    summary: 'The workspace, the profiles an endpoint can select, and the endpoints (never a secret).',
    auth: 'session', params: WorkspaceParams, status: 200, response: WebhookEndpointList,
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden'],
  }),
  updateWebhookEndpoint: defineRoute({
    method: 'PATCH', path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}', handler: 'webhooks/update-webhook-endpoint', tag: 'Webhooks',
    summary: 'Changes url, name, event_types or profile_ids; id and secret stay, pending retries use the new URL.',
    auth: 'session', params: WebhookEndpointParams, body: UpdateWebhookEndpointBody, status: 200,
    response: z.object({ webhook_endpoint: WebhookEndpoint }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'session_required', 'forbidden', 'not_found', 'invalid_state'],
  }),
  revokeWebhookEndpoint: defineRoute({
    method: 'DELETE', path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}', handler: 'webhooks/revoke-webhook-endpoint', tag: 'Webhooks',
    summary: 'Revokes the endpoint: new deliveries stop at once and pending retries end failed; cannot be undone.',
    auth: 'session', params: WebhookEndpointParams, status: 200, response: z.object({ webhook_endpoint: WebhookEndpoint }),
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden', 'not_found', 'invalid_state'],
  }),
  enableWebhookEndpoint: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/enable', handler: 'webhooks/enable-webhook-endpoint', tag: 'Webhooks',
    summary: 'Re-enables an endpoint that a 410 response disabled.',
    auth: 'session', params: WebhookEndpointParams, status: 200, response: z.object({ webhook_endpoint: WebhookEndpoint }),
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden', 'not_found', 'invalid_state'],
  }),
  rotateWebhookSecret: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/rotate-secret', handler: 'webhooks/rotate-webhook-secret', tag: 'Webhooks',
    summary: 'Issues a new signing secret; the old one keeps signing alongside it for 24 hours.',
    auth: 'session', params: WebhookEndpointParams, status: 200, response: z.object({ secret: SigningSecret }),
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden', 'not_found', 'invalid_state'],
  }),
  testWebhookEndpoint: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/test', handler: 'webhooks/test-webhook-endpoint', tag: 'Webhooks',
    summary: 'Sends a webhook.test event to this endpoint only.',
    auth: 'session', params: WebhookEndpointParams, status: 200, response: WebhookTestResult,
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden', 'not_found', 'invalid_state'],
  }),
  listWebhookDeliveries: defineRoute({
    method: 'GET', path: '/v1/workspaces/{workspace_id}/webhook-deliveries', handler: 'webhooks/list-webhook-deliveries', tag: 'Webhooks',
    summary: 'Delivery totals of the workspace and its 50 most recently updated deliveries.',
    auth: 'session', params: WorkspaceParams, status: 200, response: WebhookActivity,
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden'],
  }),
  getWebhookDelivery: defineRoute({
    method: 'GET', path: '/v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}', handler: 'webhooks/get-webhook-delivery', tag: 'Webhooks',
    summary: 'One delivery with every attempt (status code, error, duration, response body up to 2 KB).',
    auth: 'session', params: WebhookDeliveryParams, status: 200, response: WebhookDeliveryDetail,
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden', 'not_found'],
  }),
  retryWebhookDelivery: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}/retry', handler: 'webhooks/retry-webhook-delivery', tag: 'Webhooks',
    summary: 'Starts a failed delivery again: attempt numbering continues and the webhook-id stays.',
    auth: 'session', params: WebhookDeliveryParams, status: 200, response: z.object({ delivery: WebhookDelivery }),
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden', 'not_found', 'invalid_state'],
  }),
  // --- end webhooks (issue 4) ---
};

export type RouteName = keyof typeof routes;
export const routeList = Object.entries(routes).map(([name, route]) => ({ name: name as RouteName, ...route }));
