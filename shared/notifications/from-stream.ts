/**
 * Notifications written from the table stream: the records that notify (sources.ts) split into
 * lanes, one per subject of a grouped reason (a batch of one post's likes is folded at once, ONE
 * write of its group: store/notification-groups.ts), one per other notification (created once
 * by its source's id: store/notifications.ts) and one per post or comment removed by moderation
 * (its author's notice, removals.ts). Never to the profile that acted; the recipient's
 * preferences applied as the notification is written.
 */
import { viewerFilterOf } from '../domain/safety.js';
import { loadSafetySets } from '../store/safety.js';
import type { DynamoDBRecord } from 'aws-lambda';
import { keeps, notificationOf, type NotificationDraft } from '../domain/notifications.js';
import { logger } from '../logger.js';
import { consumeStream, STREAM_STEP_RETRY } from '../pipeline/stream-consumer.js';
import { foldShardOf } from '../ports/shard-stream-event.js';
import { getComment } from '../store/comments.js';
import type { FoldSettings } from '../store/shard-watermarks.js';
import { foldIntoGroup, type GroupTarget } from '../store/notification-groups.js';
import { createNotification, followedAmong, getPreferences } from '../store/notifications.js';
import { getPost } from '../store/posts.js';
import type { ContentRemoval } from './moderation-sources.js';
import { contentRemovedDraft } from './removals.js';
import { notificationWorkOf, type GroupedChange, type NotificationWork } from './sources.js';

/**
 * The deployed consumer's event source discards records older than this (infra/notifications.ts):
 * a group's watermark of a shard need not outlive its last fold by more than that.
 */
export const NOTIFY_RECORD_MAX_AGE_SECONDS = 3600;
/** The deployed consumer's watermark keep: the record age bound and an hour's margin for clocks. */
export const NOTIFY_WATERMARK_KEEP_SECONDS = NOTIFY_RECORD_MAX_AGE_SECONDS + 3600;

/** Lanes (subjects, single notifications) written at once. */
const LANES_AT_ONCE = 8;

/** Whether any record of the batch notifies (a batch without one needs no shard). */
export const notifies = (records: readonly DynamoDBRecord[]) =>
  records.some((r) => notificationWorkOf(r) !== undefined);

/**
 * Writes the notifications of one shard's batch. Returns the sequence numbers of the records whose
 * notification failed (to be retried from there); the other records are ignored.
 */
export function notifyFromStream(
  records: readonly DynamoDBRecord[],
  shardId: string | undefined,
  settings: FoldSettings,
): Promise<string[]> {
  return consumeStream<NotificationWork>(records, {
    records: 'notification source',
    failure: 'notification failed',
    select: notificationWorkOf,
    laneOf: laneOf,
    concurrency: LANES_AT_ONCE,
    retry: STREAM_STEP_RETRY,
    fold: async (lane) => {
      const first = lane[0]!;
      if (first.kind === 'single') {
        // One source per lane: a duplicate of the record in the same batch finds the first's notification.
        for (const work of lane) if (work.kind === 'single') await notifyOnce(work.draft);
        return;
      }
      if (first.kind === 'removal') {
        await notifyRemoval(first.removal);
        return;
      }
      await notifyGroup(
        lane.filter((work): work is NotificationWork & GroupedChange => work.kind === 'grouped'),
        foldShardOf(shardId, 'grouped notifications'),
        settings,
      );
    },
    describe: (work) =>
      work.kind === 'single'
        ? { source: work.draft.source, reason: work.draft.reason }
        : work.kind === 'removal'
          ? { reason: 'content_removed', subject_id: work.removal.subject_id }
          : { reason: work.reason, subject_id: work.subject_id },
  });
}

/** One lane per grouped subject, per single notification's source, per removed post or comment. */
function laneOf(work: NotificationWork): string {
  if (work.kind === 'grouped') return `${work.reason}:${work.subject_id}`;
  if (work.kind === 'removal') return `removal:${work.removal.subject_type}:${work.removal.subject_id}`;
  return `single:${work.draft.source}`;
}

/** What the recipient's blocks and mutes leave out of its notifications, as they stand when it is written. */
const hiddenFrom = async (recipientId: string) => viewerFilterOf(await loadSafetySets(recipientId));

async function notifyOnce(draft: NotificationDraft): Promise<void> {
  const actorId = draft.actor_id;
  if (actorId === null) return notifyNotice(draft);
  if (actorId === draft.recipient_id) return;
  const [preferences, hidden] = await Promise.all([getPreferences(draft.recipient_id), hiddenFrom(draft.recipient_id)]);
  const preference = preferences[draft.reason];
  if (preference === 'none' || hidden.hidesAuthor(actorId)) return;
  if (draft.actor_automated && preferences.from_agents === 'none') return;
  const followed = preference === 'following' ? await followedAmong(draft.recipient_id, [actorId]) : new Set();
  if (!keeps(preference, () => followed.has(actorId))) return;
  await createNotification(notificationOf(draft));
}

/** A notice no profile sent (moderation's): only the recipient's preference for its reason applies. */
async function notifyNotice(draft: NotificationDraft): Promise<void> {
  const preferences = await getPreferences(draft.recipient_id);
  if (!keeps(preferences[draft.reason], () => true)) return;
  await createNotification(notificationOf(draft));
}

/** A moderator's removal of a post or comment: the notice to its author, if it is still removed by moderation. */
async function notifyRemoval(removal: ContentRemoval): Promise<void> {
  const draft = await contentRemovedDraft(removal);
  if (draft) await notifyNotice(draft);
}

/** Who a grouped reason's subject notifies, and what its notification shows; undefined when the subject is gone. */
async function targetOf({ reason, subject_id }: GroupedChange): Promise<GroupTarget | undefined> {
  if (reason === 'follow')
    return { recipient_id: subject_id, reason, subject_type: 'profile', subject_id, post_id: null, comment_id: null };
  if (reason === 'like') {
    const post = await getPost(subject_id);
    return (
      post && {
        recipient_id: post.profile_id,
        reason,
        subject_type: 'post',
        subject_id,
        post_id: post.id,
        comment_id: null,
      }
    );
  }
  const comment = await getComment(subject_id);
  return (
    comment && {
      recipient_id: comment.profile_id,
      reason,
      subject_type: 'comment',
      subject_id,
      post_id: comment.post_id,
      comment_id: comment.id,
    }
  );
}

async function notifyGroup(lane: readonly GroupedChange[], shardId: string, settings: FoldSettings): Promise<void> {
  const target = await targetOf(lane[0]!);
  if (!target) {
    logger.warn('notification subject missing', { reason: lane[0]!.reason, subject_id: lane[0]!.subject_id });
    return;
  }
  const [preferences, hidden] = await Promise.all([
    getPreferences(target.recipient_id),
    hiddenFrom(target.recipient_id),
  ]);
  const byOthers = lane.filter(
    (work) => work.change.actor_id !== target.recipient_id && !hidden.hidesAuthor(work.change.actor_id),
  );
  if (byOthers.length === 0) return;
  const preference = preferences[target.reason];
  if (preference === 'none') return;
  const followed =
    preference === 'following'
      ? await followedAmong(target.recipient_id, [...new Set(byOthers.map((work) => work.change.actor_id))])
      : new Set<string>();
  // An undoing is remembered whoever made it; only a kept profile's like or follow is counted, and
  // an agent's not at all when the recipient hears nothing from agents.
  const heard = (work: GroupedChange) => !(work.actor_automated && preferences.from_agents === 'none');
  const kept = byOthers.filter(
    (work) =>
      work.change.change === 'removed' || (heard(work) && keeps(preference, () => followed.has(work.change.actor_id))),
  );
  await foldIntoGroup(
    target,
    shardId,
    kept.map((work) => ({ ...work.change, sequenceNumber: work.sequenceNumber })),
    settings,
  );
}
