/** The writes of a moderator's action on a comment or a profile (a post's are store/posts.ts's). */
import type { CommentRecord } from '../domain/posts.js';
import { updateRequest, when } from './expressions.js';
import { keys } from './keys.js';
import type { TransactItem } from './transact.js';

/**
 * A comment removed by moderation: status `removed` (kept on its post's list for its author to
 * see), and it no longer counts in its post's comments_count nor its parent's replies_count.
 */
export function commentRemovalItems(comment: CommentRecord, updatedAt: string): TransactItem[] {
  return [
    {
      Update: updateRequest({
        key: keys.comment(comment.id),
        set: { status: 'removed', removed_by: 'moderation', updated_at: updatedAt },
        when: [when.exists(), when.is('status', 'published')],
      }),
    },
    ...commentUncountItems(comment),
  ];
}

/**
 * A comment that leaves its post's comments_count and its parent's replies_count (removed or
 * deleted): in the transaction of the change whose status condition makes it happen once.
 */
export function commentUncountItems(comment: CommentRecord): TransactItem[] {
  const items: TransactItem[] = [
    { Update: updateRequest({ key: keys.post(comment.post_id), add: { comments_count: -1 }, when: when.exists() }) },
  ];
  if (comment.parent_comment_id) {
    items.push({
      Update: updateRequest({
        key: keys.comment(comment.parent_comment_id),
        add: { replies_count: -1 },
        when: when.exists(),
      }),
    });
  }
  return items;
}

/**
 * A profile suspended by moderation. Its updated_at moves with it, so the author cards its posts
 * carry are refreshed with the suspension (the profile stream's consumer), which every post list
 * reads it from.
 */
export const profileSuspensionItem = (profileId: string, at: string): TransactItem => ({
  Update: updateRequest({
    key: keys.profile(profileId),
    set: { suspended_at: at, updated_at: at },
    when: [when.exists(), when.lacks('suspended_at')],
  }),
});
