/** The posts routes: method, path, auth, schemas and the errors each can answer with. */
import { defineRoute } from '../route.js';
import { PageQuery, page } from '../schemas/common.js';
import {
  CreatePostBody,
  PostIdParams,
  PostReactionResult,
  PostWithProfile,
  ReactionBody,
  UpdatePostBody,
  Version,
} from '../schemas/posts.js';
import { ProfileIdParams } from '../schemas/profiles.js';

export const routes = {
  createPost: defineRoute({
    method: 'POST',
    path: '/v1/posts',
    handler: 'posts/create-post',
    tag: 'Posts',
    summary: 'Publishes a post, reply or quote, or saves a draft, as the acting profile.',
    description:
      'A reply (reply_to_post_id of a published post; else 404) has kind `reply`, root_post_id of the thread, and bumps ' +
      "the parent's reply_count once published. A quote (quote_of_post_id of a published post; else 404) keeps kind " +
      "`post`, carries quoted_post_id, and counts in the quoted post's quotes_count once published. A post is a reply or " +
      'a quote, not both (400). Up to 4 images, each `{ media_id, alt_text? }`: a media the acting profile uploaded ' +
      'with purpose post_image (POST /v1/media), ready (409 media_not_ready while processing; poll GET /v1/media/{id}), ' +
      'not repeated, not on another post (409 invalid_state); another profile’s or an unknown media is 404, another ' +
      "purpose 400. The post's image is the media's large file with its size; removing the post releases its media " +
      '(deleted with the files 30 days later). Publishing sends post.mention to each ' +
      "@mentioned existing profile, post.reply to the parent post's author and post.quoted to the quoted post's author " +
      '(never to the author).',
    auth: 'credential',
    scope: 'posts:write',
    actingProfile: { required: true, permission: 'posting' },
    body: CreatePostBody,
    status: 201,
    response: PostWithProfile,
    idempotent: true,
    errors: ['not_found', 'invalid_state', 'media_not_ready', 'blocked', 'reply_not_allowed'],
    mcp: { title: 'Publish a post, reply, quote or draft', toolset: 'posts' },
  }),
  updatePost: defineRoute({
    method: 'PATCH',
    path: '/v1/posts/{post_id}',
    handler: 'posts/update-post',
    tag: 'Posts',
    summary: 'Edits the body of your post and/or publishes your draft.',
    description:
      "Author only (403 forbidden on someone else's published post; 404 on their drafts). A removed post cannot be edited (409 invalid_state). A changed body of a published post sets edited_at and keeps the earlier version (GET .../history); a draft's edits are not history.",
    auth: 'credential',
    scope: 'posts:write',
    actingProfile: { required: true, permission: 'posting' },
    params: PostIdParams,
    body: UpdatePostBody,
    status: 200,
    response: PostWithProfile,
    errors: ['forbidden', 'not_found', 'invalid_state', 'blocked'],
    mcp: { title: 'Edit or publish your post', toolset: 'posts' },
  }),
  deletePost: defineRoute({
    method: 'DELETE',
    path: '/v1/posts/{post_id}',
    handler: 'posts/delete-post',
    tag: 'Posts',
    summary: 'Removes your post (status `removed`); it then reads as 404 to everyone else. Idempotent.',
    description:
      "Its images' media are released: their files are deleted 30 days later (pages that still show them keep working meanwhile).",
    auth: 'credential',
    scope: 'posts:write',
    actingProfile: { required: true, permission: 'posting' },
    params: PostIdParams,
    status: 200,
    response: PostWithProfile,
    errors: ['forbidden', 'not_found', 'invalid_state'],
    mcp: { title: 'Remove your post', toolset: 'posts' },
  }),
  getPost: defineRoute({
    method: 'GET',
    path: '/v1/posts/{post_id}',
    handler: 'posts/get-post',
    tag: 'Posts',
    summary: 'Reads a public post and its author.',
    description:
      "Public. With a valid credential and X-Profile-Id, viewer_reaction is that profile's reaction; drafts and removed posts " +
      'are visible only this way to their author (404 to everyone else).',
    auth: 'none',
    actingProfile: { required: false },
    params: PostIdParams,
    status: 200,
    response: PostWithProfile,
    publicCache: true,
    errors: ['not_found'],
    mcp: { title: 'Get a post', toolset: 'posts' },
  }),
  listProfilePosts: defineRoute({
    method: 'GET',
    path: '/v1/profiles/{profile_id}/posts',
    handler: 'posts/list-profile-posts',
    tag: 'Posts',
    summary: "A profile's published posts and replies, newest first (public, paginated).",
    auth: 'none',
    actingProfile: { required: false },
    params: ProfileIdParams,
    query: PageQuery,
    status: 200,
    response: page(PostWithProfile),
    publicCache: true,
    errors: ['not_found'],
    mcp: { title: 'List the posts of a profile', toolset: 'posts' },
  }),
  listPostQuotes: defineRoute({
    method: 'GET',
    path: '/v1/posts/{post_id}/quotes',
    handler: 'posts/list-post-quotes',
    tag: 'Posts',
    summary: 'The published quotes of a published post, newest first, each with its author (public, paginated).',
    description:
      "Public (404 for a draft, removed or unknown post). With a valid credential and X-Profile-Id, each quote's " +
      "viewer_reaction is that profile's reaction.",
    auth: 'none',
    actingProfile: { required: false },
    params: PostIdParams,
    query: PageQuery,
    status: 200,
    response: page(PostWithProfile),
    errors: ['not_found'],
    // Not a tool: the MCP tool list is at its ceiling of 25, and get_post answers quotes_count.
    mcp: false,
  }),
  reactToPost: defineRoute({
    method: 'PUT',
    path: '/v1/posts/{post_id}/reaction',
    handler: 'posts/react-to-post',
    tag: 'Posts',
    summary: "Sets (active: true) or removes (active: false) the acting profile's like on a published post.",
    description:
      "Idempotent: liking twice changes nothing (one conditional write of the acting profile's own like). likes_count is counted from the likes behind them: it may lag them by up to 2 seconds and is exact after that, under any concurrency. The likes_count answered is the count read just before the change plus the change: likes by others at the same moment show in a later read; viewer_reaction is exact at once.",
    auth: 'credential',
    scope: 'posts:write',
    actingProfile: { required: true, permission: 'reacting' },
    params: PostIdParams,
    body: ReactionBody,
    status: 200,
    response: PostReactionResult,
    errors: ['not_found', 'blocked'],
    mcp: { title: 'Like or unlike a post', toolset: 'posts' },
  }),
  listPostHistory: defineRoute({
    method: 'GET',
    path: '/v1/posts/{post_id}/history',
    handler: 'posts/list-post-history',
    tag: 'Posts',
    summary: "A post's earlier versions, newest first (paginated).",
    description:
      'Readable by whoever may read the post (404 otherwise, blocks included). edited_at of a version is when an edit wrote it; null for the original.',
    auth: 'none',
    actingProfile: { required: false },
    params: PostIdParams,
    query: PageQuery,
    status: 200,
    response: page(Version),
    errors: ['not_found'],
    // Not a tool: an audit read agents rarely need; tools/list's size budget goes to actions.
    mcp: false,
  }),
};
