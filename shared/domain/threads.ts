/** A thread as one post's page shows it: the chain of posts above it and its direct replies (no AWS, no HTTP). */
import type { ProfileRecord } from './entities.js';
import type { PostRecord } from './posts.js';
import type { ViewerFilter } from './safety.js';

/** A post with the author card it carries. */
export interface PostEntry {
  post: PostRecord;
  author: ProfileRecord;
}

/** An ancestor in the chain: the post and its author, or its id alone when the caller may not see it. */
export type AncestorSlot = (PostEntry & { available: true }) | { available: false; post_id: string };

/**
 * The chain above a post, root first, as the caller sees it: an ancestor removed, still a draft,
 * missing, or by an author the viewer's blocks and mutes hide keeps its place as unavailable, so
 * the chain keeps its shape. Drafts and removed posts are unavailable even to their author: the
 * chain shows the conversation as it is published.
 */
export function ancestorSlots(
  ancestorIds: readonly string[],
  found: ReadonlyMap<string, PostEntry>,
  viewer: ViewerFilter,
): AncestorSlot[] {
  return ancestorIds.map((id) => {
    const entry = found.get(id);
    return entry && entry.post.status === 'published' && !viewer.hidesAuthor(entry.post.profile_id)
      ? { ...entry, available: true }
      : { available: false, post_id: id };
  });
}

/** The replies the caller sees: those by an author the viewer's blocks and mutes hide are left out. */
export const visibleReplies = <E extends PostEntry>(replies: readonly E[], viewer: ViewerFilter): E[] =>
  replies.filter((reply) => !viewer.hidesAuthor(reply.post.profile_id));
