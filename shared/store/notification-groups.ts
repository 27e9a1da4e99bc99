/**
 * Grouped notifications (likes, comment likes, follows), folded from the table stream: one
 * shard's batch of a subject's likes becomes ONE conditional write of the subject's group state
 * (a partition of its own) and at most one write of the listed notification in the recipient's
 * inbox, however many likes the batch holds. So a viral post puts about one write per stream
 * shard per batch on its author's inbox, not one per like.
 *
 * Exactly once: the group state keeps, per stream shard, the sequence number of the last record
 * it folded (a watermark: store/shard-watermarks.ts) and a version every
 * write moves and is conditioned on, so a replayed or duplicated batch adds nothing and folds of
 * other shards at the same moment take turns. Opening a group is one transaction with the listed
 * notification's put and the unread count; updating an open group writes the state, then its
 * copy in the inbox, conditioned on the copy's older version (a copy lost to a crash is written by
 * the replay that finds nothing new).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  foldGroup,
  notificationIdFor,
  type GroupChange,
  type GroupedReason,
  type SubjectType,
} from '../domain/notifications.js';
import { db, tableName } from './client.js';
import { conditionHeld } from './conditional.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getItem, itemOf, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { entities } from './entities.js';
import type { GroupStateRecord, StoredNotification } from './notification-entities.js';
import { inboxPlacement, moveUnread, unseenItem } from './notification-writes.js';
import {
  afterWatermark,
  foldInRounds,
  inSequenceOrder,
  staleWatermarks,
  watermarkAfter,
  watermarkAttribute,
  type FoldSettings,
  type RoundOutcome,
} from './shard-watermarks.js';
import { transactConditional, type TransactItem } from './transact.js';
import { sendUpdate } from './update.js';

const { notificationGroup: groupLayout } = entities;

/** What a group is about: its recipient, reason and subject, and the post and comment it shows. */
export interface GroupTarget {
  recipient_id: string;
  reason: GroupedReason;
  subject_type: SubjectType;
  subject_id: string;
  post_id: string | null;
  comment_id: string | null;
}

/** A like or follow made or undone, with the stream record it came from. */
export type SequencedChange = GroupChange & { sequenceNumber: string };

/** A group's state, read strongly consistent. */
export const getGroupState = (recipientId: string, reason: string, subjectId: string) =>
  getItem(groupLayout, keys.notificationGroup(recipientId, reason, subjectId), { consistent: true });

/** Closes the open group as it was read (its seen transition's share): the next like opens a new one. */
export function groupSeenItem(group: GroupStateRecord): TransactItem {
  return {
    Update: updateRequest({
      key: groupLayout.key(group),
      set: { open_id: null, actor_ids: [], actors_count: 0, left: [], version: group.version + 1 },
      when: when.is('version', group.version),
    }),
  };
}

/** A fold goes at most this many rounds when other folds or a seen transition move the group meanwhile. */
const MAX_ROUNDS = 8;

/**
 * Folds one shard's changes of one subject into its group, each exactly once. The changes are
 * already the ones the recipient's preferences keep, never by the recipient.
 */
export async function foldIntoGroup(
  target: GroupTarget,
  shardId: string,
  changes: readonly SequencedChange[],
  settings: FoldSettings,
): Promise<void> {
  const inOrder = inSequenceOrder(changes);
  const key = keys.notificationGroup(target.recipient_id, target.reason, target.subject_id);
  return foldInRounds(`notification group fold on ${key.pk}`, MAX_ROUNDS, undefined, () =>
    foldRound(target, watermarkAttribute(shardId), inOrder, settings),
  );
}

/**
 * One read of the group and one conditional write of what `changes` (in sequence order) add after
 * the shard's watermark. Refused (another fold or a seen transition moved the group meanwhile): the
 * next round reads it again.
 */
async function foldRound(
  target: GroupTarget,
  watermark: string,
  inOrder: readonly SequencedChange[],
  settings: FoldSettings,
): Promise<RoundOutcome<undefined, void>> {
  const key = keys.notificationGroup(target.recipient_id, target.reason, target.subject_id);
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  const group = recordOrUndefined(groupLayout, Item);
  const pending = afterWatermark(inOrder, Item?.[watermark] as string | undefined);
  const done = { done: undefined };
  if (pending.length === 0) {
    // A replay: what it folded is in the group; its listed copy may not be (a crash between the writes).
    if (group?.open_id) await copyToInbox(target, group);
    return done;
  }
  const outcome = foldGroup(
    {
      open: group?.open_id ? { actor_ids: group.actor_ids, actors_count: group.actors_count } : undefined,
      left: group?.left ?? [],
    },
    pending,
  );
  const leftChanged = outcome.left.length !== (group?.left.length ?? 0);
  if (outcome.added.length === 0 && !leftChanged) return done;
  const now = settings.now.toISOString();
  const opening = !group?.open_id && outcome.added.length > 0;
  const generation = (group?.generation ?? 0) + (opening ? 1 : 0);
  const next: GroupStateRecord = {
    recipient_id: target.recipient_id,
    reason: target.reason,
    subject_id: target.subject_id,
    generation,
    open_id: opening
      ? notificationIdFor(`group:${target.recipient_id}:${target.reason}:${target.subject_id}:${generation}`)
      : (group?.open_id ?? null),
    actor_ids: outcome.actor_ids,
    actors_count: outcome.actors_count,
    left: outcome.left,
    version: (group?.version ?? 0) + 1,
    updated_at: outcome.added.length > 0 ? now : (group?.updated_at ?? now),
  };
  const { pk: _pk, sk: _sk, ...attributes } = itemOf(groupLayout, next);
  const write = {
    key,
    set: {
      ...attributes,
      [watermark]: watermarkAfter(pending[pending.length - 1]!, settings.now),
    },
    remove: staleWatermarks(Item, settings, watermark).map(([name]) => name),
    when: group ? when.is('version', group.version) : when.absent(),
  };
  if (opening) {
    const listed: StoredNotification = {
      id: next.open_id!,
      recipient_id: target.recipient_id,
      reason: target.reason,
      subject_type: target.subject_type,
      subject_id: target.subject_id,
      post_id: target.post_id,
      comment_id: target.comment_id,
      actor_ids: next.actor_ids,
      actors_count: next.actors_count,
      seen: false,
      created_at: now,
      updated_at: now,
      group_version: next.version,
    };
    const opened = await transactConditional([
      { Update: updateRequest(write) },
      { Put: { ...conditionRequest(when.absent()), Item: unseenItem(listed) } },
      moveUnread(target.recipient_id, 1),
    ]);
    return opened.ok ? done : { again: undefined };
  }
  if (!(await conditionHeld(sendUpdate(write)))) return { again: undefined };
  if (next.open_id && outcome.added.length > 0) await copyToInbox(target, next);
  return done;
}

/** The open group's state onto its listed notification, unless the copy already holds it (or newer) or it was seen. */
async function copyToInbox(target: GroupTarget, group: GroupStateRecord): Promise<void> {
  const placed = { recipient_id: target.recipient_id, id: group.open_id!, updated_at: group.updated_at };
  await conditionHeld(
    sendUpdate({
      key: keys.notification(target.recipient_id, group.open_id!),
      set: {
        ...inboxPlacement(placed),
        actor_ids: group.actor_ids,
        actors_count: group.actors_count,
        updated_at: group.updated_at,
        group_version: group.version,
      },
      when: [when.exists(), when.is('seen', false), when.compare('group_version', '<', group.version)],
    }),
  );
}
