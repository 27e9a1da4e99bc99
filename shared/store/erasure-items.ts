/**
 * What an erasure does to one item of the table that names a subject (domain/erasure.ts
 * `isTrace`): most go; some move counts others read (a reply, a comment, a follow of the erased
 * profile by another); some are another profile's and only lose the subject (a notification it
 * acted in, an endpoint that selected it, a reply that names its parent's author); the tombstones,
 * the kept username claims, and the messages others wrote to it stay. Every write is conditioned
 * or idempotent, so a replayed page finds less and moves nothing twice.
 */
import type { ErasureSubjects } from '../domain/erasure.js';
import type { OutboxEvent } from '../domain/events.js';
import type { CommentRecord, PostRecord } from '../domain/posts.js';
import type { FollowRecord, MessageRecord } from '../domain/social.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { batchWrite, DEFAULT_BATCH_WRITE, type BatchWriteSettings, type ItemKey, type WriteRequest } from './batch.js';
import { conditionHeld } from './conditional.js';
import { entities } from './entities.js';
import { conditionRequest, when } from './expressions.js';
import { putItem, recordOf } from './items.js';
import { entityTags, keys } from './keys.js';
import { commentUncountItems } from './moderation-effects.js';
import type { GroupStateRecord, StoredNotification } from './notification-entities.js';
import { moveUnread } from './notification-writes.js';
import { outboxItem } from './outbox.js';
import { erasedPostItems } from './posts.js';
import { settleOtherSide } from './erasure-conversations.js';
import { queryPathItems } from './paths.js';
import { unfollowItems } from './follows.js';
import { TABLE } from './table.js';
import { transactConditional, type TransactItem } from './transact.js';
import { sendUpdate } from './update.js';

type Item = Record<string, unknown>;

/** The subjects as the walk matches them. */
export interface ErasureTarget {
  subjects: ErasureSubjects;
  profileIds: ReadonlySet<string>;
  workspaceIds: ReadonlySet<string>;
  /** Every string that makes an item a trace (domain/erasure.ts `traceNeedles`). */
  needles: readonly string[];
  /** The events a subject's post's deletion sends (in its transaction). */
  postEvents: (post: PostRecord) => OutboxEvent[];
}

/**
 * What erasing a page did beyond the table: media whose files must go, export archives whose
 * objects must go, posts out of search, and the other profiles it met connected to a subject (a
 * follow either way, a message either way).
 */
export interface ErasedElsewhere {
  media_ids: string[];
  export_keys: string[];
  post_ids: string[];
  connected: { other: string; erased: string }[];
}

/** Events the erasure itself sends, kept by the walk: they announce it, and carry only a tombstone's data. */
const ANNOUNCING: readonly string[] = ['profile.deleted', 'post.deleted'];

/** Items of one page worked on at once (each a few writes). */
const ITEMS_AT_ONCE = 8;
/**
 * A page's plain deletes: a page with what it reached can be tens of thousands of items (100
 * followers' feed entries of the subject's posts), so more BatchWriteItem calls in flight than a
 * request's.
 */
const PAGE_DELETES: BatchWriteSettings = { ...DEFAULT_BATCH_WRITE, concurrency: 16 };

const keyOf = (item: Item): ItemKey => ({ pk: item[TABLE.partitionKey] as string, sk: item[TABLE.sortKey] as string });

/** A post's or comment's other attributes that name a profile or workspace (another's post replying to or quoting the subject). */
const POST_REFERENCES = ['reply_to_profile_id', 'reply_to_workspace_id', 'quoted_profile_id', 'quoted_workspace_id'];

/**
 * Erases the page's traces: the plain deletes batched, the rest item by item. Returns what the
 * caller erases outside the table.
 */
export async function eraseItems(items: readonly Item[], target: ErasureTarget): Promise<ErasedElsewhere> {
  const deletes: WriteRequest[] = [];
  const elsewhere: ErasedElsewhere = { media_ids: [], export_keys: [], post_ids: [], connected: [] };
  const meet = (a: string, b: string) => {
    if (own(a) && !own(b)) elsewhere.connected.push({ other: b, erased: a });
    if (own(b) && !own(a)) elsewhere.connected.push({ other: a, erased: b });
  };
  const own = (id: unknown) => typeof id === 'string' && target.profileIds.has(id);
  const work: (() => Promise<unknown>)[] = [];
  const remove = (item: Item) => deletes.push({ DeleteRequest: { Key: keyOf(item) } });

  for (const item of items) {
    switch (item.entity) {
      case entityTags.erasureJob:
      case entityTags.tombstone:
      case entityTags.username:
        break;
      case entityTags.message: {
        // Messages others wrote to it stay theirs; the other side reads as deleted.
        const message = item as unknown as MessageRecord;
        meet(message.sender_profile_id, message.recipient_profile_id);
        if (own(message.sender_profile_id)) remove(item);
        break;
      }
      case entityTags.conversation: {
        // Its side goes; the other side stays, its own messages in it (after the page's deletes, in `work`).
        const conversation = recordOf(entities.conversation, item);
        remove(item);
        if (own(conversation.profile_id) && !own(conversation.other_profile_id))
          work.push(() => settleOtherSide(conversation, target.profileIds));
        break;
      }
      case entityTags.event:
        if (!ANNOUNCING.includes(item.type as string)) remove(item);
        break;
      case entityTags.post: {
        const post = recordOf(entities.post, item);
        if (own(post.profile_id)) {
          elsewhere.post_ids.push(post.id);
          work.push(() => erasePost(post, target.postEvents(post)));
        } else work.push(() => forgetReferences(item, POST_REFERENCES, target));
        break;
      }
      case entityTags.comment: {
        const comment = recordOf(entities.comment, item);
        if (own(comment.profile_id)) work.push(() => eraseComment(comment));
        break;
      }
      case entityTags.follow: {
        const follow = item as unknown as FollowRecord;
        meet(follow.follower_profile_id, follow.followed_profile_id);
        // Another's follow of the subject moves that profile's own following count, in one transaction.
        if (own(follow.followed_profile_id) && !own(follow.follower_profile_id))
          work.push(() => transactConditional(unfollowItems(follow.follower_profile_id, follow.followed_profile_id)));
        else remove(item);
        break;
      }
      case entityTags.notification: {
        const notification = recordOf(entities.notification, item);
        if (own(notification.recipient_id)) remove(item);
        else work.push(() => dropNotificationActors(notification, target));
        break;
      }
      case entityTags.notificationGroup: {
        const group = recordOf(entities.notificationGroup, item);
        if (own(group.recipient_id)) remove(item);
        else work.push(() => dropGroupActors(group, target));
        break;
      }
      case entityTags.media:
        elsewhere.media_ids.push(item.id as string);
        remove(item);
        break;
      case entityTags.dataExport:
        // The archive is the user's data too; an export never written has no object, and deleting none is no error.
        elsewhere.export_keys.push(item.object_key as string);
        remove(item);
        break;
      case entityTags.feedLargeAuthors:
        work.push(() => dropFromSet(item, 'author_ids', target));
        break;
      case entityTags.webhookEndpoint:
      case entityTags.apiKey:
        // Another workspace's (or, for a profile's erasure, its own workspace's): it only stops selecting the profile.
        if (target.workspaceIds.has(item.workspace_id as string)) remove(item);
        else work.push(() => forgetInList(item, 'profile_ids', target));
        break;
      default:
        remove(item);
    }
  }
  await batchWrite(deletes, PAGE_DELETES);
  await mapLimit(work, ITEMS_AT_ONCE, (run) => run());
  return elsewhere;
}

/**
 * The post with what it counts on others and its earlier versions. When the post it replies to
 * is gone meanwhile (it was the subject's too), the post goes without the count.
 */
async function erasePost(post: PostRecord, events: OutboxEvent[]): Promise<void> {
  const outcome = await transactConditional([...erasedPostItems(post), ...events.map(outboxItem)]);
  if (!outcome.ok && !outcome.failed[0]) await batchWrite([{ DeleteRequest: { Key: keys.post(post.id) } }]);
  await eraseVersions(post.id);
}

/** The comment, uncounted from its post and parent while it counted (published), and its earlier versions. */
async function eraseComment(comment: CommentRecord): Promise<void> {
  const change: TransactItem = { Delete: { ...conditionRequest(when.exists()), Key: keys.comment(comment.id) } };
  const counts = comment.status === 'published' ? commentUncountItems(comment) : [];
  const outcome = await transactConditional([change, ...counts]);
  if (!outcome.ok && !outcome.failed[0]) await batchWrite([{ DeleteRequest: { Key: keys.comment(comment.id) } }]);
  await eraseVersions(comment.id);
}

/** A post's or comment's history (`VERSIONS#`): the earlier bodies are the subject's text too. */
async function eraseVersions(objectId: string): Promise<void> {
  const versions = await queryPathItems(entities.version, 'ofObject', { object_id: objectId });
  await batchWrite(versions.map((item) => ({ DeleteRequest: { Key: keyOf(item) } })));
}

/** Another's item that names the subject in some attributes: those become null. */
async function forgetReferences(item: Item, attributes: readonly string[], target: ErasureTarget): Promise<void> {
  const named = attributes.filter((a) => target.needles.includes(item[a] as string));
  if (named.length === 0) return;
  await conditionHeld(
    sendUpdate({ key: keyOf(item), set: Object.fromEntries(named.map((a) => [a, null])), when: when.exists() }),
  );
}

/** Another's item whose list attribute selects the subject: the subject leaves the list. */
async function forgetInList(item: Item, attribute: string, target: ErasureTarget): Promise<void> {
  const list = (item[attribute] as string[] | undefined) ?? [];
  const kept = list.filter((id) => !target.needles.includes(id));
  if (kept.length === list.length) return;
  await conditionHeld(sendUpdate({ key: keyOf(item), set: { [attribute]: kept }, when: when.is(attribute, list) }));
}

/** Another's string set that holds the subject: the subject leaves it. */
async function dropFromSet(item: Item, attribute: string, target: ErasureTarget): Promise<void> {
  const members = [...((item[attribute] as Set<string> | undefined) ?? [])].filter((id) => target.needles.includes(id));
  if (members.length === 0) return;
  await conditionHeld(sendUpdate({ key: keyOf(item), delete: { [attribute]: new Set(members) }, when: when.exists() }));
}

/**
 * Another's notification the subject acted in: the subject leaves its actors (its count follows);
 * one with no actor left goes, and its unread count with it while unseen. Conditioned on the
 * version read: a notification the fold moved meanwhile is found again by the second pass.
 */
async function dropNotificationActors(notification: StoredNotification, target: ErasureTarget): Promise<void> {
  const gone = notification.actor_ids.filter((id) => target.profileIds.has(id));
  const key = keys.notification(notification.recipient_id, notification.id);
  const unchanged = [when.exists(), when.is('updated_at', notification.updated_at)];
  const left = notification.actors_count - gone.length;
  if (left <= 0 || gone.length === 0) {
    // No actor left, or the subject is what it is about (its post, its comment): it goes.
    await transactConditional([
      { Delete: { ...conditionRequest(unchanged), Key: key } },
      ...(notification.seen ? [] : [moveUnread(notification.recipient_id, -1)]),
    ]);
    return;
  }
  await conditionHeld(
    sendUpdate({
      key,
      set: { actor_ids: notification.actor_ids.filter((id) => !gone.includes(id)), actors_count: left },
      when: unchanged,
    }),
  );
}

/** Another's group state that lists the subject (as an actor, or as one who left): the subject leaves it. */
async function dropGroupActors(group: GroupStateRecord, target: ErasureTarget): Promise<void> {
  const gone = group.actor_ids.filter((id) => target.profileIds.has(id));
  await conditionHeld(
    sendUpdate({
      key: keys.notificationGroup(group.recipient_id, group.reason, group.subject_id),
      set: {
        actor_ids: group.actor_ids.filter((id) => !target.profileIds.has(id)),
        left: group.left.filter((id) => !target.profileIds.has(id)),
        actors_count: Math.max(0, group.actors_count - gone.length),
        version: group.version + 1,
      },
      when: [when.exists(), when.is('version', group.version)],
    }),
  );
}

/** The subjects as the walk matches them. */
export const erasureTargetOf = (
  subjects: ErasureSubjects,
  needles: readonly string[],
  postEvents: ErasureTarget['postEvents'],
): ErasureTarget => ({
  subjects,
  postEvents,
  profileIds: new Set(subjects.profiles.map((p) => p.id)),
  workspaceIds: new Set(subjects.workspace_ids),
  needles,
});

/** The erasure's own announcements, each put once (a replayed page finds its id taken and writes nothing). */
export async function announce(events: readonly OutboxEvent[]): Promise<void> {
  await mapLimit(events, ITEMS_AT_ONCE, (event) => conditionHeld(putItem(entities.event, event)));
}
