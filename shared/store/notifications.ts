/**
 * A profile's notifications: created once per source (a replay finds the first), listed newest
 * update first, seen up to a time, and counted. The unread count is an item of its own that moves
 * only with a notification's create and seen transitions, each in the same transaction as the
 * transition and conditioned on it, so it stays exact under replays and concurrency.
 */
import {
  NOTIFICATION_RETENTION_DAYS,
  REASONS,
  preferencesOf,
  type NotificationPreferences,
  type NotificationReason,
  type NotificationRecord,
} from '../domain/notifications.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { batchGet, keyId } from './batch.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getItem, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { entities } from './entities.js';
import type { StoredNotification } from './notification-entities.js';
import { moveUnread, seenChanges, unseenItem } from './notification-writes.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPath, queryPathPages } from './paths.js';
import { transactConditional } from './transact.js';
import { getGroupState, groupSeenItem } from './notification-groups.js';
import { sendUpdate } from './update.js';

const { notification: layout, notificationUnread: unreadLayout, notificationPreferences: preferencesLayout } = entities;

/** The end of every sort key of one instant on the inbox path (`<updated_at>#<id>`). */
const AFTER_EVERY_ID = '#\uffff';

/** The oldest `updated_at` a read still answers (older notifications are past their retention). */
const retainedFrom = (now: Date) => new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * 86_400_000).toISOString();

/**
 * Creates an ungrouped notification with its count, once: a replay or a duplicate of its source
 * derives the same id and finds it there (nothing is written). Returns whether it was created.
 */
export async function createNotification(record: NotificationRecord): Promise<boolean> {
  const outcome = await transactConditional([
    { Put: { ...conditionRequest(when.absent()), Item: unseenItem(record) } },
    moveUnread(record.recipient_id, 1),
  ]);
  return outcome.ok;
}

export interface ListFilter {
  /** Only these reasons (all when absent). */
  reasons?: readonly NotificationReason[] | undefined;
}

/** One page of the profile's notifications of the last 90 days, newest update first. */
export function listNotifications(
  recipientId: string,
  filter: ListFilter,
  request: PageRequest,
  now: Date,
): Promise<Page<StoredNotification>> {
  return pathPage(layout, 'inbox', { recipient_id: recipientId }, request, {
    order: 'newest_first',
    range: { between: [retainedFrom(now), '\uffff'] },
    ...(filter.reasons?.length ? { filter: when.oneOf('reason', filter.reasons) } : {}),
  });
}

/**
 * The profile's unread notifications: the count item, less the unseen ones past their retention
 * (reads no longer answer them; they are usually none, one short Query finds out).
 */
export async function unreadCount(recipientId: string, now: Date): Promise<number> {
  const [counter, expired] = await Promise.all([
    getItem(unreadLayout, keys.notificationUnread(recipientId), { consistent: true }),
    queryPath(
      layout,
      'inbox',
      { recipient_id: recipientId },
      { range: { below: retainedFrom(now) }, filter: when.is('seen', false), attributes: ['id'] },
    ),
  ]);
  return Math.max(0, (counter?.unread ?? 0) - expired.length);
}

/** Notifications seen at once by one seen request. */
const SEEN_AT_ONCE = 8;

/**
 * Every unseen notification of the profile updated at or before `seenAt` becomes seen (each its
 * own conditional transition with the count); one updated meanwhile past `seenAt` stays unseen.
 * Returns the unread count left.
 */
export async function markSeen(recipientId: string, seenAt: string, now: Date): Promise<number> {
  for await (const page of queryPathPages(
    layout,
    'inbox',
    { recipient_id: recipientId },
    { range: { atMost: `${seenAt}${AFTER_EVERY_ID}` }, filter: when.is('seen', false) },
  )) {
    await mapLimit(page, SEEN_AT_ONCE, (n) => (REASONS[n.reason].grouped ? seeGrouped(n, seenAt) : seeSingle(n)));
  }
  return unreadCount(recipientId, now);
}

async function seeSingle(n: StoredNotification): Promise<void> {
  await transactConditional([
    {
      Update: updateRequest({
        key: layout.key(n),
        set: seenChanges(n),
        when: [when.is('seen', false), when.is('updated_at', n.updated_at)],
      }),
    },
    moveUnread(n.recipient_id, -1),
  ]);
}

/** Tries of a grouped notification's seen transition that its group's concurrent folds may refuse. */
const SEEN_ROUNDS = 6;

/**
 * A grouped notification is seen with its group's state (the listed copy may lag it by one write):
 * when the group was updated past `seenAt`, it stays unseen; otherwise the group closes (the next
 * like opens a new one) in the same transaction.
 */
async function seeGrouped(n: StoredNotification, seenAt: string, round = 1): Promise<void> {
  const group = await getGroupState(n.recipient_id, n.reason, n.subject_id);
  // The group's state is gone (past its retention): the listed notification is all there is.
  if (!group) return seeSingle(n);
  if (group.open_id !== n.id || group.updated_at > seenAt) return;
  const outcome = await transactConditional([
    groupSeenItem(group),
    {
      Update: updateRequest({
        key: layout.key(n),
        set: seenChanges({
          ...n,
          actor_ids: group.actor_ids,
          actors_count: group.actors_count,
          updated_at: group.updated_at,
          group_version: group.version + 1,
        }),
        when: when.is('seen', false),
      }),
    },
    moveUnread(n.recipient_id, -1),
  ]);
  // Seen already (another seen request), or done.
  if (outcome.ok || outcome.failed[1]) return;
  // The group moved meanwhile (a fold): read it again.
  if (round >= SEEN_ROUNDS) throw new Error(`seen transition of notification ${n.id} refused ${SEEN_ROUNDS} times`);
  return seeGrouped(n, seenAt, round + 1);
}

/** The profile's preferences, every reason `all` until changed. */
export async function getPreferences(recipientId: string): Promise<NotificationPreferences> {
  const stored = await getItem(preferencesLayout, keys.notificationPreferences(recipientId), { consistent: true });
  return preferencesOf(stored);
}

/** Changes some reasons' preferences; returns the whole map. */
export async function setPreferences(
  recipientId: string,
  changes: Partial<NotificationPreferences>,
): Promise<NotificationPreferences> {
  const { Attributes } = await sendUpdate({
    key: keys.notificationPreferences(recipientId),
    set: { entity: preferencesLayout.entity, recipient_id: recipientId, ...changes },
    returns: 'ALL_NEW',
  });
  return preferencesOf(recordOrUndefined(preferencesLayout, Attributes));
}

/** Which of `profileIds` the profile follows (one BatchGetItem of the follow items). */
export async function followedAmong(followerId: string, profileIds: readonly string[]): Promise<Set<string>> {
  if (profileIds.length === 0) return new Set();
  const found = await batchGet(profileIds.map((id) => keys.follow(followerId, id)));
  return new Set(profileIds.filter((id) => found.has(keyId(keys.follow(followerId, id)))));
}
