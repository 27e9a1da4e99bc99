/** Posts and comments: records, their factories and pure rules (no AWS, no HTTP). */
import { AppError } from '../errors.js';
import { isAutomated, type Disclosure } from './disclosure.js';
import type { ProfileRecord } from './entities.js';
import { extractHashtags } from './hashtags.js';
import { newId } from './ids.js';
import type { ReplyPolicy } from './safety.js';

/** How many ancestors a thread page shows, and a reply keeps the ids of: the nearest ones. */
export const MAX_THREAD_ANCESTORS = 20;

/**
 * The ancestors a reply to `parent` keeps (root first, the nearest MAX_THREAD_ANCESTORS): the
 * parent's own, then the parent. Kept on the post when it is created, so a thread page reads the
 * whole chain in one batch instead of walking it one parent at a time.
 */
export const ancestorIdsOf = (parent: Pick<PostRecord, 'id' | 'ancestor_ids'>): string[] =>
  [...parent.ancestor_ids, parent.id].slice(-MAX_THREAD_ANCESTORS);

export type PostStatus = 'draft' | 'published' | 'removed';
export type PostKind = 'post' | 'reply';
export type ReactionType = 'like';

export const BODY_PREVIEW_LENGTH = 280;
export const MAX_IMAGES = 4;

/** An attached media (see media-attachments.ts: `postImageOf`). */
export interface PostImage {
  /** The media's id. */
  id: string;
  url: string;
  width: number;
  height: number;
  alt_text: string | null;
}

export interface PostRecord extends Disclosure {
  id: string;
  profile_id: string;
  /** The author's workspace (internal: addresses events without another read). */
  author_workspace_id: string;
  kind: PostKind;
  body: string;
  images: PostImage[];
  reply_to_post_id: string | null;
  root_post_id: string | null;
  /**
   * The thread above a reply, root first, the nearest MAX_THREAD_ANCESTORS (internal: a thread
   * page reads them in one batch); empty for a post.
   */
  ancestor_ids: string[];
  /** Author of the parent post, for replies (internal: the post.reply event and its workspace). */
  reply_to_profile_id: string | null;
  reply_to_workspace_id: string | null;
  /** The post this one quotes (a quote is a post of its own: kind `post`, never a reply). */
  quoted_post_id: string | null;
  /** Author of the quoted post (internal: the post.quoted event and its workspace). */
  quoted_profile_id: string | null;
  quoted_workspace_id: string | null;
  visibility: 'public';
  status: PostStatus;
  published_at: string | null;
  reply_count: number;
  likes_count: number;
  comments_count: number;
  quotes_count: number;
  created_at: string;
  updated_at: string;
  /** When the body was last edited (not a draft's publication); null until then. */
  edited_at: string | null;
  /** Who removed the post; null unless it is removed. */
  removed_by: RemovedBy | null;
  /** Who may reply in the thread this post roots (API.md "Safety"). */
  reply_policy: ReplyPolicy;
  /** The body's `#tags` (hashtags.ts), computed whenever the body is written. */
  hashtags: string[];
}

export interface CommentRecord extends Disclosure {
  id: string;
  post_id: string;
  profile_id: string;
  author_workspace_id: string;
  parent_comment_id: string | null;
  body: string;
  /** `deleted` by its author, the post's author or a moderator while it had replies: kept, body empty, so replies keep their place. */
  status: 'published' | 'removed' | 'deleted';
  replies_count: number;
  reactions_count: number;
  created_at: string;
  updated_at: string;
  /** When the body was last edited; null until then. */
  edited_at: string | null;
  /** Who removed the comment; null unless it is removed. */
  removed_by: RemovedBy | null;
}

/** Who removed a post or comment: its author, or a moderator resolving reports. */
export type RemovedBy = 'author' | 'moderation';

/** One profile's like on a post or comment (the item's key names the target). */
export interface ReactionRecord {
  profile_id: string;
  reaction_type: ReactionType;
  created_at: string;
  /** The profile is an agent: a recipient with `from_agents: "none"` is not notified of it. */
  automated: boolean;
}

/** A reply names a post that is not (or no longer) published. */
export const replyParentNotFound = () =>
  new AppError('not_found', {
    message: 'The post replied to was not found.',
    hint: 'reply_to_post_id must name a published post; drafts and removed posts cannot be replied to.',
  });

/** A quote names a post that is not (or no longer) published. */
export const quotedPostNotFound = () =>
  new AppError('not_found', {
    message: 'The quoted post was not found.',
    hint: 'quote_of_post_id must name a published post; drafts and removed posts cannot be quoted.',
  });

/** `body_preview`: the first 280 characters (code points, so no surrogate pair is cut in half). */
export function bodyPreview(body: string): { body_preview: string; body_truncated: boolean } {
  // Walks only the first 280 code points (a lone surrogate counts as one, as when iterating).
  let index = 0;
  for (let count = 0; index < body.length; count++) {
    if (count === BODY_PREVIEW_LENGTH) return { body_preview: body.slice(0, index), body_truncated: true };
    index += body.codePointAt(index)! > 0xffff ? 2 : 1;
  }
  return { body_preview: body, body_truncated: false };
}

/** Drafts and removed posts are visible to their author only. */
export const isVisibleTo = (post: PostRecord, viewerProfileId: string | undefined): boolean =>
  post.status === 'published' || post.profile_id === viewerProfileId;

/** The thread root of a reply to `parent`. */
export const rootOf = (parent: PostRecord): string => parent.root_post_id ?? parent.id;

type Author = Pick<ProfileRecord, 'id' | 'workspace_id'>;

/**
 * A post; a reply when `related.parent` is given, a quote when `related.quoted` is (the caller
 * checked that post is published; a post is never both).
 */
export function newPost(
  now: Date,
  author: Author,
  fields: {
    body: string;
    images: readonly PostImage[];
    status: 'draft' | 'published';
    reply_policy?: ReplyPolicy | undefined;
  },
  disclosure: Disclosure,
  related: { parent?: PostRecord | undefined; quoted?: PostRecord | undefined } = {},
): PostRecord {
  const { parent, quoted } = related;
  const at = now.toISOString();
  return {
    id: newId(),
    profile_id: author.id,
    author_workspace_id: author.workspace_id,
    kind: parent ? 'reply' : 'post',
    body: fields.body,
    images: [...fields.images],
    reply_to_post_id: parent?.id ?? null,
    root_post_id: parent ? rootOf(parent) : null,
    ancestor_ids: parent ? ancestorIdsOf(parent) : [],
    reply_to_profile_id: parent?.profile_id ?? null,
    reply_to_workspace_id: parent?.author_workspace_id ?? null,
    quoted_post_id: quoted?.id ?? null,
    quoted_profile_id: quoted?.profile_id ?? null,
    quoted_workspace_id: quoted?.author_workspace_id ?? null,
    visibility: 'public',
    status: fields.status,
    published_at: fields.status === 'published' ? at : null,
    reply_count: 0,
    likes_count: 0,
    comments_count: 0,
    quotes_count: 0,
    created_at: at,
    updated_at: at,
    edited_at: null,
    removed_by: null,
    reply_policy: fields.reply_policy ?? 'everyone',
    hashtags: extractHashtags(fields.body),
    automated: disclosure.automated,
    via: disclosure.via,
  };
}

/** A published comment on `post`, or a reply to `parent` (a comment of the same post). */
export function newComment(
  now: Date,
  author: Author,
  post: Pick<PostRecord, 'id'>,
  parent: CommentRecord | undefined,
  body: string,
  disclosure: Disclosure,
): CommentRecord {
  const at = now.toISOString();
  return {
    id: newId(),
    post_id: post.id,
    profile_id: author.id,
    author_workspace_id: author.workspace_id,
    parent_comment_id: parent?.id ?? null,
    body,
    status: 'published',
    replies_count: 0,
    reactions_count: 0,
    created_at: at,
    updated_at: at,
    edited_at: null,
    removed_by: null,
    automated: disclosure.automated,
    via: disclosure.via,
  };
}

/**
 * An earlier version of a post's or comment's body, written by the edit that replaced it (the
 * history routes). `edited_at` is the replaced version's own: null for the original.
 */
export interface VersionRecord {
  id: string;
  object_id: string;
  body: string;
  images?: PostImage[];
  edited_at: string | null;
  /** When the edit that replaced this version ran: the history's order. */
  replaced_at: string;
}

/** The version `before` was, as the edit at `at` replaces it. */
export const versionOf = (
  before: { id: string; body: string; edited_at: string | null; images?: PostImage[] },
  at: string,
): VersionRecord => ({
  id: newId(),
  object_id: before.id,
  body: before.body,
  ...(before.images && { images: before.images }),
  edited_at: before.edited_at,
  replaced_at: at,
});

export const newReaction = (
  now: Date,
  profile: Pick<ProfileRecord, 'id' | 'type'>,
  reactionType: ReactionType,
): ReactionRecord => ({
  profile_id: profile.id,
  reaction_type: reactionType,
  created_at: now.toISOString(),
  automated: isAutomated(profile),
});
