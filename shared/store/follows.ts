import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { OutboxEvent } from '../domain/events.js';
import type { FollowRecord } from '../domain/social.js';
import { notFound } from '../errors.js';
import { db, tableName } from './client.js';
import { keys, timeSortKey } from './keys.js';
import { outboxItem } from './outbox.js';
import { indexPage, type Page, type PageRequest } from './pagination.js';
import { isConditionFailure } from './transact.js';
import { transactConditional } from './transact.js';

/**
 * Creates the follow with its event in one transaction, if it does not exist yet (then nothing is
 * written and no second event goes out). Returns whether a new follow was created.
 */
export async function follow(record: FollowRecord, events: OutboxEvent[]): Promise<boolean> {
  const outcome = await transactConditional([
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.follow(record.follower_profile_id, record.followed_profile_id),
          gsi1pk: keys.profileFollowers(record.followed_profile_id),
          gsi1sk: timeSortKey(record.created_at, record.follower_profile_id),
          gsi2pk: keys.profileFollowing(record.follower_profile_id),
          gsi2sk: timeSortKey(record.created_at, record.followed_profile_id),
          entity: 'follow',
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { ConditionCheck: { TableName: tableName(), Key: keys.profile(record.followed_profile_id), ConditionExpression: 'attribute_exists(pk)' } },
    ...events.map(outboxItem),
  ]);
  if (outcome.ok) return true;
  if (outcome.failed[1]) throw notFound('Profile');
  return false;
}

/** Returns whether there was a follow to delete. */
export async function unfollow(followerId: string, followedId: string): Promise<boolean> {
  try {
    await db().send(
      new DeleteCommand({ TableName: tableName(), Key: keys.follow(followerId, followedId), ConditionExpression: 'attribute_exists(pk)' }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Who follows the profile, most recent first. */
export function listFollowers(profileId: string, request: PageRequest): Promise<Page<FollowRecord>> {
  return indexPage<FollowRecord>('gsi1', keys.profileFollowers(profileId), request, 'newest_first');
}

/** Whom the profile follows, most recent first. */
export function listFollowing(profileId: string, request: PageRequest): Promise<Page<FollowRecord>> {
  return indexPage<FollowRecord>('gsi2', keys.profileFollowing(profileId), request, 'newest_first');
}
