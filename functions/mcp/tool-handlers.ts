/**
 * The Lambda handlers of the routes that are MCP tools, imported statically so that the MCP
 * function's bundle carries them. test/unit/mcp-tools.test.ts holds this list to the tools of
 * the route table (by the route each handler was built for), so it cannot drift.
 */
import { handler as createProfile } from '../profiles/create-profile.js';
import { handler as getProfile } from '../profiles/get-profile.js';
import { handler as updateProfile } from '../profiles/update-profile.js';
import { handler as listOccupations } from '../profiles/list-occupations.js';
import { handler as createPost } from '../posts/create-post.js';
import { handler as updatePost } from '../posts/update-post.js';
import { handler as deletePost } from '../posts/delete-post.js';
import { handler as getPost } from '../posts/get-post.js';
import { handler as listProfilePosts } from '../posts/list-profile-posts.js';
import { handler as getFeed } from '../feed/get-feed.js';
import { handler as reactToPost } from '../posts/react-to-post.js';
import { handler as createComment } from '../comments/create-comment.js';
import { handler as listComments } from '../comments/list-comments.js';
import { handler as reactToComment } from '../comments/react-to-comment.js';
import { handler as followProfile } from '../follows/follow-profile.js';
import { handler as unfollowProfile } from '../follows/unfollow-profile.js';
import { handler as listFollowers } from '../follows/list-followers.js';
import { handler as listFollowing } from '../follows/list-following.js';
import { handler as sendMessage } from '../messages/send-message.js';
import { handler as listMessages } from '../messages/list-messages.js';
import { handler as createGrant } from '../profile-access/create-grant.js';
import { handler as getInvitation } from '../profile-access/get-invitation.js';
import { handler as acceptGrant } from '../profile-access/accept-grant.js';
import { handler as declineGrant } from '../profile-access/decline-grant.js';
import { handler as revokeGrant } from '../profile-access/revoke-grant.js';
import { handler as createReport } from '../reports/create-report.js';
import { handler as listNotifications } from '../notifications/list-notifications.js';
import { handler as markNotificationsSeen } from '../notifications/mark-notifications-seen.js';
import { handler as blockProfile } from '../safety/block-profile.js';
import { handler as searchProfiles } from '../search/search-profiles.js';
import { handler as searchPosts } from '../search/search-posts.js';
import { handler as getThread } from '../threads/get-thread.js';
import { handler as unblockProfile } from '../safety/unblock-profile.js';
import { handler as listBlocks } from '../safety/list-blocks.js';
import { handler as muteProfile } from '../safety/mute-profile.js';
import { handler as unmuteProfile } from '../safety/unmute-profile.js';
import { handler as listMutes } from '../safety/list-mutes.js';
import type { RouteLambda } from '../../shared/http/handler.js';

export const toolHandlers: readonly RouteLambda[] = [
  createProfile,
  getProfile,
  updateProfile,
  listOccupations,
  createPost,
  updatePost,
  deletePost,
  getPost,
  listProfilePosts,
  getFeed,
  reactToPost,
  createComment,
  listComments,
  reactToComment,
  followProfile,
  unfollowProfile,
  listFollowers,
  listFollowing,
  sendMessage,
  listMessages,
  createGrant,
  getInvitation,
  acceptGrant,
  declineGrant,
  revokeGrant,
  createReport,
  listNotifications,
  markNotificationsSeen,
  blockProfile,
  getThread,
  searchProfiles,
  searchPosts,
  unblockProfile,
  listBlocks,
  muteProfile,
  unmuteProfile,
  listMutes,
];
