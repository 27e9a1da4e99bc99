import type { AncestorSlot, PostEntry } from '../../domain/threads.js';
import type { Page } from '../../store/pagination.js';
import { presentPostWithProfile } from './posts.js';

/** An ancestor: the post with its author, or the placeholder that keeps its place. */
const presentAncestor = (slot: AncestorSlot, liked: ReadonlySet<string>) =>
  slot.available
    ? presentPostWithProfile(slot.post, slot.author, liked.has(slot.post.id))
    : { post: null, profile: null, post_id: slot.post_id, unavailable: true as const };

/** A thread page; `liked`: the posts on it the acting profile likes. */
export const presentThread = (
  ancestors: readonly AncestorSlot[],
  entry: PostEntry,
  replies: Page<PostEntry>,
  liked: ReadonlySet<string>,
) => ({
  ancestors: ancestors.map((slot) => presentAncestor(slot, liked)),
  post: presentPostWithProfile(entry.post, entry.author, liked.has(entry.post.id)),
  replies: replies.items.map(({ post, author }) => presentPostWithProfile(post, author, liked.has(post.id))),
  next_cursor: replies.next_cursor,
});
