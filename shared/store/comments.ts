import type { OutboxEvent } from '../domain/events.js';
import type { CommentRecord } from '../domain/posts.js';
import { AppError, notFound } from '../errors.js';
import { batchGet, keyId } from './batch.js';
import { entities } from './entities.js';
import { getItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import { outboxItem } from './outbox.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import { updateRequest, when } from './expressions.js';
import type { ReadBatch } from './read-batch.js';
import { transactConditional } from './transact.js';
import type { TransactItem } from './transact.js';

/**
 * The comment, the post's comments_count, the parent's replies_count and the event: one
 * transaction. The post must still be published and the parent must belong to the same post.
 */
export async function createComment(comment: CommentRecord, events: OutboxEvent[]): Promise<void> {
  const items: TransactItem[] = [
    putTransactItem(entities.comment, comment),
    {
      Update: updateRequest({
        key: keys.post(comment.post_id),
        add: { comments_count: 1 },
        when: [when.exists(), when.is('status', 'published')],
      }),
    },
  ];
  if (comment.parent_comment_id) {
    items.push({
      Update: updateRequest({
        key: keys.comment(comment.parent_comment_id),
        add: { replies_count: 1 },
        when: [when.exists(), when.is('post_id', comment.post_id)],
      }),
    });
  }
  items.push(...events.map(outboxItem));
  const outcome = await transactConditional(items);
  if (outcome.ok) return;
  if (outcome.failed[1]) throw notFound('Post');
  if (outcome.failed[2])
    throw new AppError('not_found', {
      message: 'Parent comment not found.',
      hint: 'parent_comment_id must name a comment of this post.',
    });
  throw new AppError('invalid_state', { message: 'The comment could not be created.', hint: 'Retry the request.' });
}

export function getComment(id: string, consistent = false, reads?: ReadBatch): Promise<CommentRecord | undefined> {
  return getItem(entities.comment, keys.comment(id), { consistent, reads });
}

/** A post's comments and nested replies, oldest first. */
export function listComments(postId: string, request: PageRequest): Promise<Page<CommentRecord>> {
  return pathPage(entities.comment, 'byPost', { post_id: postId }, request);
}

/** A profile's comments of every status, newest first (the export). */
export function listProfileComments(profileId: string, request: PageRequest): Promise<Page<CommentRecord>> {
  return pathPage(entities.comment, 'byAuthor', { profile_id: profileId }, request, { order: 'newest_first' });
}

/** Which of `commentIds` the viewer likes. */
export async function likedComments(commentIds: readonly string[], viewerId: string | undefined): Promise<Set<string>> {
  if (!viewerId || commentIds.length === 0) return new Set();
  const found = await batchGet(commentIds.map((id) => keys.commentReaction(id, viewerId)));
  return new Set(commentIds.filter((id) => found.has(keyId(keys.commentReaction(id, viewerId)))));
}
