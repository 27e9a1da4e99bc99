import type { ReactionRecord } from '../domain/posts.js';
import { tableName } from './client.js';
import type { ItemKey } from './batch.js';
import { entities } from './entities.js';
import { putTransactItem } from './items.js';
import { keys } from './keys.js';
import { transactConditional } from './transact.js';
import type { TransactItem } from './transact.js';

export interface ReactionTarget {
  /** The post or comment item that holds the counter. */
  key: ItemKey;
  counter: 'likes_count' | 'reactions_count';
  /** Extra condition on the target besides existing (e.g. the post is published). */
  condition?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
}

export type ReactionOutcome = 'changed' | 'unchanged' | 'target_missing';

/**
 * Sets (active) or removes one profile's like on a target, with the counter, in ONE
 * TransactWriteItems: put-if-absent + ADD 1, or delete-if-present + ADD -1. If the reaction item's
 * condition fails, nothing was written: the request was a repeat (idempotent no-op). No read
 * precedes the write, so concurrent likes and unlikes can never lose or double an update.
 */
export async function setReaction(
  target: ReactionTarget,
  reactionKey: ItemKey,
  reaction: ReactionRecord,
  active: boolean,
): Promise<ReactionOutcome> {
  const reactionItem: TransactItem = active
    ? putTransactItem(entities.reaction(reactionKey), reaction)
    : { Delete: { TableName: tableName(), Key: reactionKey, ConditionExpression: 'attribute_exists(pk)' } };
  const condition = target.condition;
  const counterItem: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: target.key,
      UpdateExpression: 'ADD #counter :delta',
      ConditionExpression: condition ? `attribute_exists(pk) AND ${condition.expression}` : 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#counter': target.counter, ...condition?.names },
      ExpressionAttributeValues: { ':delta': active ? 1 : -1, ...condition?.values },
    },
  };
  const outcome = await transactConditional([reactionItem, counterItem]);
  if (outcome.ok) return 'changed';
  return outcome.failed[1] ? 'target_missing' : 'unchanged';
}

/** Likes on a post: counted in likes_count; only a published post takes (or loses) likes. */
export const postReactionTarget = (postId: string): ReactionTarget => ({
  key: keys.post(postId),
  counter: 'likes_count',
  condition: {
    expression: '#status = :published',
    names: { '#status': 'status' },
    values: { ':published': 'published' },
  },
});

/** Likes on a comment: counted in reactions_count. */
export const commentReactionTarget = (commentId: string): ReactionTarget => ({
  key: keys.comment(commentId),
  counter: 'reactions_count',
});

/** The item of a profile's like on a post: a read batch asks for it to learn the viewer's reaction. */
export const postReactionKey = (postId: string, profileId: string): ItemKey => keys.postReaction(postId, profileId);
