/**
 * Blocks and mutes (domain/safety.ts) in the table: every one of a profile's blocks, reverse
 * blocks and mutes lives in its safety partition (`SAFETY#<profile>`), so one consistent Query
 * answers all three sets for a request, whatever their size (1,000 blocks are one page of it).
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileRecord } from '../domain/entities.js';
import type { BlockRecord, MuteRecord, SafetySets } from '../domain/safety.js';
import { batchGet, keyId } from './batch.js';
import { conditionHeld } from './conditional.js';
import { db } from './client.js';
import { entities } from './entities.js';
import { conditionRequest, when } from './expressions.js';
import { followKey, unfollow, unfollowItems } from './follows.js';
import { putItem, putTransactItem } from './items.js';
import { entityTags, keys } from './keys.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPathItems } from './paths.js';
import { getProfiles } from './profiles.js';
import { transactConditional, type TransactItem } from './transact.js';

/**
 * The profile's safety sets: one strongly consistent Query of its safety partition (a block or
 * mute holds from the next request), reading only the ids.
 */
export async function loadSafetySets(profileId: string): Promise<SafetySets> {
  const items = await queryPathItems(
    entities.block,
    'safetyOf',
    { profile_id: profileId },
    { consistent: true, attributes: ['blocker_profile_id', 'blocked_profile_id', 'muted_profile_id'] },
  );
  const blocks = new Set<string>();
  const blockedBy = new Set<string>();
  const mutes = new Set<string>();
  for (const item of items) {
    if (item.entity === entityTags.block) blocks.add(item.blocked_profile_id as string);
    else if (item.entity === entityTags.blockedBy) blockedBy.add(item.blocker_profile_id as string);
    else if (item.entity === entityTags.mute) mutes.add(item.muted_profile_id as string);
  }
  return { blocks, blockedBy, mutes };
}

/** The block and its reverse item, written only if the block does not stand yet (the first item's condition). */
const blockItems = (record: BlockRecord): TransactItem[] => [
  putTransactItem(entities.block, record),
  putTransactItem(entities.blockedBy, record, { ifAbsent: false }),
];

/**
 * Blocks, ending the follows between the two profiles both ways in the same transaction (through
 * the unfollow's own writes, so the counts stay exact). Returns whether the block is new; a repeat
 * writes nothing but still ends a follow that slipped in (a follow racing the block).
 */
export async function block(record: BlockRecord): Promise<boolean> {
  const { blocker_profile_id: a, blocked_profile_id: b } = record;
  const pairs: [string, string][] = [
    [a, b],
    [b, a],
  ];
  const found = await batchGet(
    pairs.map(([follower, followed]) => followKey(follower, followed)),
    { consistent: true },
  );
  const standing = pairs.filter(([follower, followed]) => found.has(keyId(followKey(follower, followed))));
  const outcome = await transactConditional([
    ...blockItems(record),
    ...standing.flatMap(([follower, followed]) => unfollowItems(follower, followed)),
  ]);
  if (outcome.ok) return true;
  // The block stood already, or a follow ended meanwhile: the block alone, then each follow by its own unfollow.
  const created = !outcome.failed[0] && (await transactConditional(blockItems(record))).ok;
  await Promise.all(standing.map(([follower, followed]) => unfollow(follower, followed)));
  return created;
}

/** Removes the block and its reverse item; returns whether there was one. */
export async function unblock(blockerId: string, blockedId: string): Promise<boolean> {
  const outcome = await transactConditional([
    { Delete: { ...conditionRequest(when.exists()), Key: keys.block(blockerId, blockedId) } },
    { Delete: { ...conditionRequest(when.exists()), Key: keys.blockedBy(blockedId, blockerId) } },
  ]);
  return outcome.ok;
}

/** Mutes; returns whether the mute is new (a repeat keeps the first one's time). */
export const mute = (record: MuteRecord): Promise<boolean> => conditionHeld(putItem(entities.mute, record));

/** Removes the mute; returns whether there was one. */
export const unmute = (muterId: string, mutedId: string): Promise<boolean> =>
  conditionHeld(db().send(new DeleteCommand({ ...conditionRequest(when.exists()), Key: keys.mute(muterId, mutedId) })));

export interface SafetyListItem {
  profile: ProfileRecord;
  created_at: string;
}

/** A page of records with the other profile of each (one BatchGetItem); records whose profile is gone are left out. */
async function withProfiles<R extends { created_at: string }>(
  pending: Promise<Page<R>>,
  other: (record: R) => string,
): Promise<Page<SafetyListItem>> {
  const page = await pending;
  const profiles = await getProfiles(page.items.map(other));
  return {
    items: page.items.flatMap((record) => {
      const profile = profiles.get(other(record));
      return profile ? [{ profile, created_at: record.created_at }] : [];
    }),
    next_cursor: page.next_cursor,
  };
}

/** The profile's blocks with the blocked profiles, newest first. */
export const listBlocks = (blockerId: string, request: PageRequest): Promise<Page<SafetyListItem>> =>
  withProfiles(
    pathPage(entities.block, 'byBlocker', { blocker_profile_id: blockerId }, request, { order: 'newest_first' }),
    (b) => b.blocked_profile_id,
  );

/** The profile's mutes with the muted profiles, newest first. */
export const listMutes = (muterId: string, request: PageRequest): Promise<Page<SafetyListItem>> =>
  withProfiles(
    pathPage(entities.mute, 'byMuter', { muter_profile_id: muterId }, request, { order: 'newest_first' }),
    (m) => m.muted_profile_id,
  );
