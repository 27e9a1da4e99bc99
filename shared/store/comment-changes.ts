/** A comment's author editing it, and its deletion: each one transaction, exactly once under retries. */
import type { OutboxEvent } from '../domain/events.js';
import { versionOf, type CommentRecord } from '../domain/posts.js';
import { AppError, notFound } from '../errors.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getComment } from './comments.js';
import { keys } from './keys.js';
import { commentUncountItems } from './moderation-effects.js';
import { outboxItem } from './outbox.js';
import { transactConditional, type TransactItem } from './transact.js';
import { versionItem } from './versions.js';

/** A deleted or removed comment takes no edit: 409. */
export const commentNotPublished = () =>
  new AppError('invalid_state', {
    message: 'Only a published comment can be edited or deleted.',
    hint: 'A deleted or removed comment stays as it is.',
  });

/**
 * The new body and the version it replaces (one more write). Conditioned on the body read, so two
 * edits racing each keep the version the other replaced; the loser is told to retry.
 */
export async function editComment(before: CommentRecord, body: string, at: string): Promise<CommentRecord> {
  const outcome = await transactConditional([
    {
      Update: updateRequest({
        key: keys.comment(before.id),
        set: { body, updated_at: at, edited_at: at },
        when: [when.exists(), when.is('status', 'published'), when.is('updated_at', before.updated_at)],
      }),
    },
    versionItem(versionOf(before, at)),
  ]);
  if (!outcome.ok) throw await refusal(before.id);
  return { ...before, body, updated_at: at, edited_at: at };
}

/**
 * Without replies the comment's item goes; with replies it stays as `deleted` with an empty body.
 * Either way it is uncounted from its post and parent in the same transaction, which a published
 * status conditions: a retry finds it gone or deleted and moves nothing.
 */
export async function deleteComment(before: CommentRecord, at: string, events: OutboxEvent[]): Promise<void> {
  const change: TransactItem =
    before.replies_count === 0
      ? {
          Delete: {
            Key: keys.comment(before.id),
            ...conditionRequest([when.is('status', 'published'), when.is('replies_count', 0)]),
          },
        }
      : {
          Update: updateRequest({
            key: keys.comment(before.id),
            set: { status: 'deleted', body: '', updated_at: at },
            when: [when.exists(), when.is('status', 'published')],
          }),
        };
  const outcome = await transactConditional([change, ...commentUncountItems(before), ...events.map(outboxItem)]);
  if (!outcome.ok) throw await refusal(before.id);
}

/** Why a conditioned change did not apply: the comment is no longer published, or it moved meanwhile. */
async function refusal(commentId: string): Promise<AppError> {
  const now = await getComment(commentId, true);
  if (!now) return notFound('Comment');
  if (now.status !== 'published') return commentNotPublished();
  return new AppError('invalid_state', {
    message: 'The comment changed meanwhile.',
    hint: 'Read it again and retry.',
  });
}
