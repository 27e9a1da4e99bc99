/** The follows routes: method, path, auth, schemas and the errors each can answer with. */
import { defineRoute } from '../route.js';
import { PageQuery, page } from '../schemas/common.js';
import { FollowBody, FollowListItem, FollowResult, UnfollowResult } from '../schemas/follows.js';
import { ProfileIdParams } from '../schemas/profiles.js';

export const routes = {
  followProfile: defineRoute({
    method: 'POST',
    path: '/v1/profile-follows',
    handler: 'follows/follow-profile',
    tag: 'Follows',
    summary: 'The acting profile follows another profile (idempotent; profile.followed on a new follow).',
    auth: 'credential',
    scope: 'follows:write',
    actingProfile: { required: true, permission: 'following' },
    body: FollowBody,
    status: 201,
    response: FollowResult,
    errors: ['not_found', 'blocked'],
    mcp: { title: 'Follow a profile', toolset: 'follows' },
  }),
  unfollowProfile: defineRoute({
    method: 'DELETE',
    path: '/v1/profile-follows',
    handler: 'follows/unfollow-profile',
    tag: 'Follows',
    summary: 'The acting profile stops following a profile; unfollowed is false when there was no follow.',
    auth: 'credential',
    scope: 'follows:write',
    actingProfile: { required: true, permission: 'following' },
    body: FollowBody,
    status: 200,
    response: UnfollowResult,
    errors: [],
    mcp: { title: 'Unfollow a profile', toolset: 'follows' },
  }),
  listFollowers: defineRoute({
    method: 'GET',
    path: '/v1/profiles/{profile_id}/followers',
    handler: 'follows/list-followers',
    tag: 'Follows',
    summary: 'Profiles that follow the profile, most recent follow first (public, paginated).',
    auth: 'none',
    // Acting as a profile applies its blocks: a profile across a block is not found, nor listed.
    actingProfile: { required: false },
    params: ProfileIdParams,
    query: PageQuery,
    status: 200,
    response: page(FollowListItem),
    errors: ['not_found'],
    mcp: { title: 'List the followers of a profile', toolset: 'follows' },
  }),
  listFollowing: defineRoute({
    method: 'GET',
    path: '/v1/profiles/{profile_id}/following',
    handler: 'follows/list-following',
    tag: 'Follows',
    summary: 'Profiles the profile follows, most recent follow first (public, paginated).',
    auth: 'none',
    // Acting as a profile applies its blocks: a profile across a block is not found, nor listed.
    actingProfile: { required: false },
    params: ProfileIdParams,
    query: PageQuery,
    status: 200,
    response: page(FollowListItem),
    errors: ['not_found'],
    mcp: { title: 'List the profiles a profile follows', toolset: 'follows' },
  }),
};
