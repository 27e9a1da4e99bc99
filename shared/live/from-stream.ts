/**
 * The per-profile event logs written from the table stream (sources.ts says which changes make
 * events). Each change's events are appended once (store/event-log.ts: a replayed batch finds
 * them), one lane per profile so a profile's events of one batch keep their stream order. The
 * recipient's blocks and mutes apply as in the lists they mirror; notifications come already
 * filtered by the recipient's preferences (they are written only if kept). A post entering a
 * follower's feed is logged by reference (domain/live-events.ts FeedPostReference), with no read.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { FeedPostReference, LiveEvent, LiveEventDraft } from '../domain/live-events.js';
import type { ConversationRecord } from '../domain/conversations.js';
import { viewerFilterOf, type ViewerFilter } from '../domain/safety.js';
import { presentConversation } from '../http/present/conversations.js';
import { presentMessage } from '../http/present/messages.js';
import { presentNotification } from '../http/present/notifications.js';
import { hydrateNotifications, visibleToRecipient } from '../notifications/hydrate.js';
import { consumeStream, STREAM_STEP_RETRY } from '../pipeline/stream-consumer.js';
import { conversationShown } from '../safety/checks.js';
import { conversationViews } from '../store/conversations.js';
import { appendEvent } from '../store/event-log.js';
import { loadSafetySets } from '../store/safety.js';
import { liveChangeOf, type LiveChange } from './sources.js';

/** Lanes (profiles) written at once. */
const LANES_AT_ONCE = 8;

/**
 * A post that entered a feed longer ago than this after it was published came with a follow's
 * backfill (the reader's older posts of a newly followed author): not news, no event.
 */
const FEED_NEWS_WINDOW_MS = 10 * 60_000;

/** One profile's share of a change: whose log, and the change. */
interface LiveWork {
  profile_id: string;
  change: LiveChange;
}

/** Told of each event once it is in the log (the local runtime wakes its waiting streams). */
export type OnLogged = (event: LiveEvent) => void;

function worksOf(change: LiveChange): LiveWork[] {
  if (change.kind === 'notification') return [{ profile_id: change.notification.recipient_id, change }];
  // Each side's item is its own: the recipient's and the sender's (its other sessions) of a message.
  if (change.kind === 'conversation') return [{ profile_id: change.conversation.profile_id, change }];
  return [{ profile_id: change.reader_id, change }];
}

const viewerOf = async (profileId: string): Promise<ViewerFilter> => viewerFilterOf(await loadSafetySets(profileId));

/**
 * A conversation item's change as its owner's event, when its list would show the conversation:
 * in the inbox (a message waiting in requests tells nothing until accepted; the sender's side is
 * always in its inbox), not hidden, not across a block nor with a suspended or erased profile
 * (mutes do not quiet messages, as in the lists). The item's image is the conversation as the list
 * presents it right after the change; its other profile and last message are ONE BatchGetItem.
 */
async function conversationDraft(
  change: 'message' | 'read_by_other',
  conversation: ConversationRecord,
): Promise<LiveEventDraft | undefined> {
  if (conversation.box !== 'inbox' || conversation.hidden) return undefined;
  const [[view], viewer] = await Promise.all([conversationViews([conversation]), viewerOf(conversation.profile_id)]);
  // An erased other side tells nothing: the erasure's own settling of this item is no news.
  if (!view?.other || !conversationShown(viewer, view.other)) return undefined;
  const presented = presentConversation(conversation, view.other, view.lastMessage);
  const profile_id = conversation.profile_id;
  if (change === 'message')
    return {
      type: 'message.created',
      profile_id,
      data: { message: presentMessage(view.lastMessage), conversation: presented },
      source: `message:${conversation.last_message_id}`,
    };
  // Read marks only move forward: each mark the other side set is logged once.
  const readUpTo = conversation.other_read_up_to;
  if (!readUpTo) return undefined;
  return {
    type: 'conversation.read',
    profile_id,
    data: { conversation: presented, read_up_to: readUpTo },
    source: `read:${conversation.id}:${readUpTo}`,
  };
}

/** The event a profile gets of a change, or undefined when its blocks, mutes or the change's state say none. */
async function draftOf({ profile_id, change }: LiveWork): Promise<LiveEventDraft | undefined> {
  if (change.kind === 'notification') {
    const [shown] = visibleToRecipient([change.notification], await viewerOf(profile_id));
    if (!shown) return undefined;
    const [view] = await hydrateNotifications([shown]);
    return {
      type: change.type,
      profile_id,
      data: presentNotification(view!),
      source: `notification:${shown.id}:${shown.updated_at}`,
    };
  }
  if (change.kind === 'conversation') return conversationDraft(change.change, change.conversation);
  return feedPostDraft(profile_id, change);
}

/**
 * A post entering a follower's feed, logged by reference with no read: whether it is still
 * published, by whom, and whether the reader's blocks and mutes hide its author are all asked when
 * the event is read or published (present.ts), where they must be asked anyway.
 */
function feedPostDraft(profile_id: string, entry: Extract<LiveChange, { kind: 'feed' }>): LiveEventDraft | undefined {
  if (Date.parse(entry.since) - Date.parse(entry.published_at) > FEED_NEWS_WINDOW_MS) return undefined;
  const data: FeedPostReference = { post_id: entry.post_id };
  return { type: 'feed.post', profile_id, data, source: `feed:${entry.post_id}` };
}

/** Whether any record of the batch makes an event. */
export const logsEvents = (records: readonly DynamoDBRecord[]) => records.some((r) => liveChangeOf(r) !== undefined);

/** Appends the events of one shard's batch; returns the sequence numbers of the records that failed. */
export function logEventsFromStream(
  records: readonly DynamoDBRecord[],
  onLogged: OnLogged,
  now: () => Date = () => new Date(),
): Promise<string[]> {
  return consumeStream<LiveWork[]>(records, {
    records: 'live event source',
    failure: 'event log append failed',
    select: (record) => {
      const change = liveChangeOf(record);
      return change && (change.ok ? { ok: true, record: worksOf(change.record) } : change);
    },
    // One record's works go to one profile (a record per side of a conversation): its lane.
    laneOf: (works) => works[0]!.profile_id,
    concurrency: LANES_AT_ONCE,
    retry: STREAM_STEP_RETRY,
    each: async (works) => {
      for (const work of works) {
        const draft = await draftOf(work);
        const event = draft && (await appendEvent(draft, work.change.since, now));
        if (event) onLogged(event);
      }
    },
    describe: (works) => ({ profile_id: works[0]?.profile_id, kind: works[0]?.change.kind }),
  });
}
