/**
 * The Lambda handlers of the routes that are MCP tools, by handler module (as the route table
 * names it), each loaded when a call first needs it. The imports are dynamic so that the MCP
 * function's bundle splits (infra/bundling.ts, MCP_BUNDLING): a cold start loads the MCP core and
 * then only the called tool's chunk, not every tool route. test/unit/mcp-tools.test.ts holds this
 * list to the tools of the route table (by the route each handler was built for), so it cannot drift.
 */
import type { RouteLambda } from '../../shared/http/handler.js';

export const toolHandlers: Readonly<Record<string, () => Promise<{ handler: RouteLambda }>>> = {
  'profiles/create-profile': () => import('../profiles/create-profile.js'),
  'profiles/get-profile': () => import('../profiles/get-profile.js'),
  'profiles/update-profile': () => import('../profiles/update-profile.js'),
  'profiles/list-occupations': () => import('../profiles/list-occupations.js'),
  'posts/create-post': () => import('../posts/create-post.js'),
  'posts/update-post': () => import('../posts/update-post.js'),
  'posts/delete-post': () => import('../posts/delete-post.js'),
  'posts/get-post': () => import('../posts/get-post.js'),
  'posts/list-profile-posts': () => import('../posts/list-profile-posts.js'),
  'feed/get-feed': () => import('../feed/get-feed.js'),
  'posts/react-to-post': () => import('../posts/react-to-post.js'),
  'comments/create-comment': () => import('../comments/create-comment.js'),
  'comments/list-comments': () => import('../comments/list-comments.js'),
  'comments/react-to-comment': () => import('../comments/react-to-comment.js'),
  'comments/update-comment': () => import('../comments/update-comment.js'),
  'comments/delete-comment': () => import('../comments/delete-comment.js'),
  'follows/follow-profile': () => import('../follows/follow-profile.js'),
  'follows/unfollow-profile': () => import('../follows/unfollow-profile.js'),
  'follows/list-followers': () => import('../follows/list-followers.js'),
  'follows/list-following': () => import('../follows/list-following.js'),
  'messages/send-message': () => import('../messages/send-message.js'),
  'messages/list-messages': () => import('../messages/list-messages.js'),
  'conversations/list-conversations': () => import('../conversations/list-conversations.js'),
  'conversations/get-unread-count': () => import('../conversations/get-unread-count.js'),
  'conversations/mark-conversation-read': () => import('../conversations/mark-conversation-read.js'),
  'conversations/accept-conversation': () => import('../conversations/accept-conversation.js'),
  'profile-access/create-grant': () => import('../profile-access/create-grant.js'),
  'profile-access/get-invitation': () => import('../profile-access/get-invitation.js'),
  'profile-access/accept-grant': () => import('../profile-access/accept-grant.js'),
  'profile-access/decline-grant': () => import('../profile-access/decline-grant.js'),
  'profile-access/revoke-grant': () => import('../profile-access/revoke-grant.js'),
  'reports/create-report': () => import('../reports/create-report.js'),
  'notifications/list-notifications': () => import('../notifications/list-notifications.js'),
  'notifications/mark-notifications-seen': () => import('../notifications/mark-notifications-seen.js'),
  'safety/block-profile': () => import('../safety/block-profile.js'),
  'search/search-profiles': () => import('../search/search-profiles.js'),
  'search/search-posts': () => import('../search/search-posts.js'),
  'threads/get-thread': () => import('../threads/get-thread.js'),
  'safety/unblock-profile': () => import('../safety/unblock-profile.js'),
  'safety/list-blocks': () => import('../safety/list-blocks.js'),
  'safety/mute-profile': () => import('../safety/mute-profile.js'),
  'safety/unmute-profile': () => import('../safety/unmute-profile.js'),
  'safety/list-mutes': () => import('../safety/list-mutes.js'),
};
