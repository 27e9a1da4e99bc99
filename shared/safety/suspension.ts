/**
 * Interactions with a suspended profile's content answer as its reads do: not found. A post's
 * author is judged by the card its item carries (read with the post, in the request's batch: no
 * round trip of its own); a comment's author by its profile (a comment carries no card), read in
 * the same batch as the comment's post.
 */
import type { ProfileRecord } from '../domain/entities.js';
import type { CommentRecord, PostRecord } from '../domain/posts.js';
import { isSuspended } from '../domain/reports.js';
import { getPostWithReaction, type PostRead } from '../store/posts.js';
import { getProfile } from '../store/profiles.js';
import type { ReadBatch } from '../store/read-batch.js';

/** The post with its author's card: one key of the request's batch. */
export const readPostWithCard = (id: string, reads: ReadBatch): Promise<PostRead> =>
  getPostWithReaction(id, undefined, reads);

/** The post, when it takes interactions: published, by an author not suspended; else undefined (404). */
export const livePost = (read: PostRead): PostRecord | undefined =>
  read.post?.status === 'published' && !isSuspended(read.author) ? read.post : undefined;

/** The profile, when it may be interacted with (exists, not suspended); else undefined (404). */
export const liveProfile = (profile: ProfileRecord | undefined): ProfileRecord | undefined =>
  profile && !isSuspended(profile) ? profile : undefined;

/**
 * Whether a comment may be interacted with: its author is not suspended, nor is its post's (whose
 * comments read 404 then), and its post is published. Both read in one batch.
 */
export async function commentIsLive(comment: CommentRecord, reads: ReadBatch): Promise<boolean> {
  const [post, author] = await Promise.all([
    readPostWithCard(comment.post_id, reads),
    getProfile(comment.profile_id, reads),
  ]);
  return livePost(post) !== undefined && liveProfile(author) !== undefined;
}
