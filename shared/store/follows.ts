import type { ProfileRecord } from '../domain/entities.js';
import type { OutboxEvent } from '../domain/events.js';
import type { FollowRecord } from '../domain/social.js';
import { batchGet, keyId } from './batch.js';
import type { CounterItem } from './counter-fold.js';
import { entities } from './entities.js';
import { putTransactItem } from './items.js';
import { entityTags, keys, type FollowKeyParts } from './keys.js';
import { outboxItem } from './outbox.js';
import type { ItemKey } from './batch.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPath } from './paths.js';
import { getProfile, getProfiles } from './profiles.js';
import type { ReadBatch } from './read-batch.js';
import { transactConditional, type TransactItem } from './transact.js';

/**
 * The follower's following_count moves in the follow's own transaction: only that profile's
 * follows write it. The followed profile's followers_count, which every follower of a popular
 * profile would write, is folded from the table stream instead (followerCounter).
 */
const moveFollowingCount = (followerId: string, delta: 1 | -1): TransactItem => ({
  Update: updateRequest({
    key: keys.followingCount(followerId),
    set: { entity: entityTags.followingCount },
    add: { following_count: delta },
  }),
});

/**
 * Creates the follow with its event in one transaction, if it does not exist yet (then nothing is
 * written and no second event goes out). Returns whether a new follow was created. The caller has
 * read the followed profile (profiles are never deleted): no write here touches the followed
 * profile's items, which every one of its followers would write.
 */
export async function follow(record: FollowRecord, events: OutboxEvent[]): Promise<boolean> {
  const outcome = await transactConditional([
    putTransactItem(entities.follow, record),
    moveFollowingCount(record.follower_profile_id, 1),
    ...events.map(outboxItem),
  ]);
  return outcome.ok;
}

/**
 * The writes that end a follow: the follow item (only if it exists; its removal reaches the
 * followed profile's followers_count through the stream) and the follower's following_count. Part
 * of any transaction that ends follows (an unfollow, a block).
 */
export const unfollowItems = (followerId: string, followedId: string): TransactItem[] => [
  { Delete: { ...conditionRequest(when.exists()), Key: keys.follow(followerId, followedId) } },
  moveFollowingCount(followerId, -1),
];

/** Returns whether there was a follow to delete. */
export async function unfollow(followerId: string, followedId: string): Promise<boolean> {
  const outcome = await transactConditional(unfollowItems(followerId, followedId));
  return outcome.ok;
}

/** Where the counter fold counts a follow: the followed profile's followers_count, an item of its own. */
export const followerCounter = ({ followedId }: FollowKeyParts): { item: CounterItem; counter: string } => ({
  item: { key: keys.followerCount(followedId), createAs: entityTags.followerCount },
  counter: 'followers_count',
});

export interface FollowCounts {
  /** Folded from the stream: may lag the follows by up to 2 seconds. */
  followers_count: number;
  /** Exact at once. */
  following_count: number;
}

/** The profile's follow counts (0 before its first follow); through the request's `reads` when given. */
export async function getFollowCounts(profileId: string, reads?: ReadBatch): Promise<FollowCounts> {
  const followerKey = keys.followerCount(profileId);
  const followingKey = keys.followingCount(profileId);
  let followers: Record<string, unknown> | undefined;
  let following: Record<string, unknown> | undefined;
  if (reads) {
    [followers, following] = await Promise.all([reads.get(followerKey), reads.get(followingKey)]);
  } else {
    const found = await batchGet([followerKey, followingKey]);
    [followers, following] = [found.get(keyId(followerKey)), found.get(keyId(followingKey))];
  }
  return {
    followers_count: Number(followers?.followers_count ?? 0),
    following_count: Number(following?.following_count ?? 0),
  };
}

/** Who follows the profile, most recent first. */
export function listFollowers(profileId: string, request: PageRequest): Promise<Page<FollowRecord>> {
  return pathPage(entities.follow, 'followersOf', { followed_profile_id: profileId }, request, {
    order: 'newest_first',
  });
}

/** Whom the profile follows, most recent first. */
export function listFollowing(profileId: string, request: PageRequest): Promise<Page<FollowRecord>> {
  return pathPage(entities.follow, 'followedBy', { follower_profile_id: profileId }, request, {
    order: 'newest_first',
  });
}

export interface FollowListItem {
  profile: ProfileRecord;
  followed_at: string;
}

/**
 * A page of follows with the other side's profile (one BatchGetItem); undefined when the profile
 * itself does not exist. Follows whose other profile is gone are left out.
 */
async function withProfiles(
  profileId: string,
  pending: Promise<Page<FollowRecord>>,
  other: (follow: FollowRecord) => string,
): Promise<Page<FollowListItem> | undefined> {
  const [profile, page] = await Promise.all([getProfile(profileId), pending]);
  if (!profile) return undefined;
  const profiles = await getProfiles(page.items.map(other));
  return {
    items: page.items.flatMap((f) => {
      const p = profiles.get(other(f));
      return p ? [{ profile: p, followed_at: f.created_at }] : [];
    }),
    next_cursor: page.next_cursor,
  };
}

/** The profile's followers with their profiles, most recent first; undefined when the profile does not exist. */
export const followersOf = (profileId: string, request: PageRequest) =>
  withProfiles(profileId, listFollowers(profileId, request), (f) => f.follower_profile_id);

/** The profiles the profile follows, most recent first; undefined when the profile does not exist. */
export const followingOf = (profileId: string, request: PageRequest) =>
  withProfiles(profileId, listFollowing(profileId, request), (f) => f.followed_profile_id);

/** The item that exists while `followerId` follows `followedId`: a read batch asks for it to learn whether it still does. */
export const followKey = (followerId: string, followedId: string): ItemKey => keys.follow(followerId, followedId);

/** The ids of up to `max` of the profile's followers, newest follow first. */
export async function followerIds(profileId: string, max: number): Promise<string[]> {
  const follows = await queryPath(
    entities.follow,
    'followersOf',
    { followed_profile_id: profileId },
    { order: 'newest_first', attributes: ['follower_profile_id'], max },
  );
  return follows.map((f) => f.follower_profile_id);
}

/** One page of the profile's followers' ids, oldest follow first; `next` continues it (as `after`). */
export async function followerIdsPage(
  profileId: string,
  request: { limit: number; after?: string | undefined },
): Promise<{ ids: string[]; next: string | undefined }> {
  const page = await pathPage(
    entities.follow,
    'followersOf',
    { followed_profile_id: profileId },
    { limit: request.limit, cursor: request.after },
    { attributes: ['follower_profile_id'], read: (item) => item.follower_profile_id as string },
  );
  return { ids: page.items, next: page.next_cursor ?? undefined };
}
