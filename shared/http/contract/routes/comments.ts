/** The comments routes: method, path, auth, schemas and the errors each can answer with. */
import { defineRoute } from '../route.js';
import { CommentIdParams, CommentReactionResult, CommentWithProfile, CreateCommentBody } from '../schemas/comments.js';
import { PageQuery, page } from '../schemas/common.js';
import { PostIdParams, ReactionBody } from '../schemas/posts.js';

export const routes = {
  createComment: defineRoute({
    method: 'POST',
    path: '/v1/posts/{post_id}/comments',
    handler: 'comments/create-comment',
    tag: 'Comments',
    summary: 'Comments on a published post, or replies to one of its comments (any depth).',
    description:
      "A parent_comment_id of another post is 400 invalid_request; an unknown one 404. Sends comment.created to the post's " +
      "author (top level) or comment.reply to the parent comment's author, never to the commenter.",
    auth: 'credential',
    scope: 'comments:write',
    actingProfile: { required: true, permission: 'commenting' },
    params: PostIdParams,
    body: CreateCommentBody,
    status: 201,
    response: CommentWithProfile,
    idempotent: true,
    errors: ['not_found'],
    mcp: { title: 'Comment on a post', toolset: 'posts' },
  }),
  listComments: defineRoute({
    method: 'GET',
    path: '/v1/posts/{post_id}/comments',
    handler: 'comments/list-comments',
    tag: 'Comments',
    summary: 'Comments and nested replies of a published post, oldest first (public, paginated).',
    description:
      'Each comment carries parent_comment_id (null at top level); with a credential and X-Profile-Id, viewer_reaction.',
    auth: 'none',
    actingProfile: { required: false },
    params: PostIdParams,
    query: PageQuery,
    status: 200,
    response: page(CommentWithProfile),
    publicCache: true,
    errors: ['not_found'],
    mcp: { name: 'list_post_comments', title: 'List the comments of a post', toolset: 'posts' },
  }),
  reactToComment: defineRoute({
    method: 'PUT',
    path: '/v1/comments/{comment_id}/reaction',
    handler: 'comments/react-to-comment',
    tag: 'Comments',
    summary: "Sets or removes the acting profile's like on a comment (idempotent).",
    description:
      "Idempotent: liking twice changes nothing. The comment's reactions_count is counted from the likes behind them: it may lag them by up to 2 seconds and is exact after that, under any concurrency. The reactions_count answered is the count read just before the change plus the change; viewer_reaction is exact at once.",
    auth: 'credential',
    scope: 'comments:write',
    actingProfile: { required: true, permission: 'reacting' },
    params: CommentIdParams,
    body: ReactionBody,
    status: 200,
    response: CommentReactionResult,
    errors: ['not_found'],
    mcp: { title: 'Like or unlike a comment', toolset: 'posts' },
  }),
};
