import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { ReactionRecord } from '../domain/posts.js';
import type { ItemKey } from './batch.js';
import { db } from './client.js';
import { conditionHeld } from './conditional.js';
import type { CounterItem } from './counter-fold.js';
import { entities } from './entities.js';
import { putItem } from './items.js';
import { conditionRequest, when } from './expressions.js';
import { keyParts, keys, type ReactionKeyParts } from './keys.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import { TABLE } from './table.js';

export type ReactionOutcome = 'changed' | 'unchanged';

/**
 * Sets (active) or removes one profile's reaction: one conditional write of the profile's own
 * item (put if absent, delete if present), in the target's key shard of the profile. A repeat
 * writes nothing (idempotent). The target's counter is not written here: the counter fold adds
 * the change from the table stream (shared/counters/from-stream.ts), so concurrent reactions to
 * one target never write the same item.
 */
export async function setReaction(key: ItemKey, reaction: ReactionRecord, active: boolean): Promise<ReactionOutcome> {
  const changed = await conditionHeld(
    active
      ? putItem(entities.reaction(key), reaction)
      : db().send(new DeleteCommand({ ...conditionRequest(when.exists()), Key: key })),
  );
  return changed ? 'changed' : 'unchanged';
}

/** Where the counter fold counts a reaction: the post's likes_count, the comment's reactions_count, on the item itself. */
export const reactionCounter = ({ target, targetId }: ReactionKeyParts): { item: CounterItem; counter: string } =>
  target === 'post'
    ? { item: { key: keys.post(targetId) }, counter: 'likes_count' }
    : { item: { key: keys.comment(targetId) }, counter: 'reactions_count' };

/** A profile's likes are read by profile: the layout's path does not depend on the item's key. */
export const profileLikesLayout = entities.reaction({ pk: '', sk: '' });

/** One page of a profile's likes, oldest first, each as its key names it (the export's likes.json). */
export const listProfileLikes = (profileId: string, request: PageRequest): Promise<Page<ReactionKeyParts>> =>
  pathPage(profileLikesLayout, 'byProfile', { profile_id: profileId }, request, {
    read: (item) => keyParts.reaction({ pk: item[TABLE.partitionKey] as string, sk: item[TABLE.sortKey] as string })!,
  });

/** The item of a profile's like on a post: a read batch asks for it to learn the viewer's reaction. */
export const postReactionKey = (postId: string, profileId: string): ItemKey => keys.postReaction(postId, profileId);
