import type { ProfileRecord } from '../domain/entities.js';
import type { GrantRecord } from '../domain/grants.js';
import { bodyPreview, type CommentRecord, type PostRecord } from '../domain/posts.js';
import type { MessageRecord } from '../domain/social.js';
import { present } from './present.js';

/** Social records → API shapes (see schemas/posts.ts, comments.ts, grants.ts, messages.ts). */
export const presentSocial = {
  post: (p: PostRecord, liked = false) => ({
    id: p.id,
    profile_id: p.profile_id,
    kind: p.kind,
    ...bodyPreview(p.body),
    images: p.images,
    image_count: p.images.length,
    reply_to_post_id: p.reply_to_post_id,
    root_post_id: p.root_post_id,
    visibility: p.visibility,
    status: p.status,
    published_at: p.published_at,
    reply_count: p.reply_count,
    likes_count: p.likes_count,
    viewer_reaction: liked ? ('like' as const) : null,
    comments_count: p.comments_count,
    quotes_count: p.quotes_count,
    created_at: p.created_at,
    updated_at: p.updated_at,
    body: p.body,
  }),
  postWithProfile: (p: PostRecord, author: ProfileRecord, liked = false) => ({ post: presentSocial.post(p, liked), profile: present.profile(author) }),
  comment: (c: CommentRecord, liked = false) => ({
    id: c.id,
    post_id: c.post_id,
    profile_id: c.profile_id,
    parent_comment_id: c.parent_comment_id,
    body: c.body,
    status: c.status,
    replies_count: c.replies_count,
    reactions_count: c.reactions_count,
    viewer_reaction: liked ? ('like' as const) : null,
    created_at: c.created_at,
    updated_at: c.updated_at,
  }),
  message: (m: MessageRecord) => ({
    id: m.id,
    sender_profile_id: m.sender_profile_id,
    recipient_profile_id: m.recipient_profile_id,
    body: m.body,
    created_at: m.created_at,
  }),
  grant: (g: GrantRecord, manager: ProfileRecord) => ({
    id: g.id,
    profile_id: g.profile_id,
    manager_profile: present.profile(manager),
    permissions: g.permissions,
    status: g.status,
    accepted_at: g.accepted_at,
    declined_at: g.declined_at,
    revoked_at: g.revoked_at,
    resent_at: g.resent_at,
    resend_count: g.resend_count,
    created_at: g.created_at,
    updated_at: g.updated_at,
  }),
};
