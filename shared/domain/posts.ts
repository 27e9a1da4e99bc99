/** Posts and comments: records and pure rules (no AWS, no HTTP). */

export type PostStatus = 'draft' | 'published' | 'removed';
export type PostKind = 'post' | 'reply';
export type ReactionType = 'like';

export const BODY_PREVIEW_LENGTH = 280;
export const MAX_IMAGES = 4;

export interface PostImage {
  id: string;
  url: string;
  width: number;
  height: number;
  alt_text: string | null;
}

export interface PostRecord {
  id: string;
  profile_id: string;
  /** The author's workspace (internal: addresses events without another read). */
  author_workspace_id: string;
  kind: PostKind;
  body: string;
  images: PostImage[];
  reply_to_post_id: string | null;
  root_post_id: string | null;
  /** Author of the parent post, for replies (internal: the post.reply event and its workspace). */
  reply_to_profile_id: string | null;
  reply_to_workspace_id: string | null;
  visibility: 'public';
  status: PostStatus;
  published_at: string | null;
  reply_count: number;
  likes_count: number;
  comments_count: number;
  quotes_count: number;
  created_at: string;
  updated_at: string;
}

export interface CommentRecord {
  id: string;
  post_id: string;
  profile_id: string;
  author_workspace_id: string;
  parent_comment_id: string | null;
  body: string;
  status: 'published';
  replies_count: number;
  reactions_count: number;
  created_at: string;
  updated_at: string;
}

/** `body_preview`: the first 280 characters (code points, so no surrogate pair is cut in half). */
export function bodyPreview(body: string): { body_preview: string; body_truncated: boolean } {
  const chars = Array.from(body);
  return chars.length > BODY_PREVIEW_LENGTH
    ? { body_preview: chars.slice(0, BODY_PREVIEW_LENGTH).join(''), body_truncated: true }
    : { body_preview: body, body_truncated: false };
}

/** Drafts and removed posts are visible to their author only. */
export const isVisibleTo = (post: PostRecord, viewerProfileId: string | undefined): boolean =>
  post.status === 'published' || post.profile_id === viewerProfileId;

/** The thread root of a reply to `parent`. */
export const rootOf = (parent: PostRecord): string => parent.root_post_id ?? parent.id;
