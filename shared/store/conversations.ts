/**
 * Conversations, one item per participant (keys.ts `CONV#<profile>`): the lists by box, read
 * marks, hide and accept (the send's own updates: conversation-send.ts). Unread counts move only
 * by `ADD` in the send or under a condition on what a read mark read, so two sends at once, or a
 * send racing a read mark, leave them exact.
 */
import type { ConversationRecord, ConversationBox } from '../domain/conversations.js';
import type { ProfileRecord } from '../domain/entities.js';
import { conversationPair, type MessageRecord } from '../domain/social.js';
import { retry, type RetryPolicy } from '../pipeline/retry.js';
import type { ItemKey } from './batch.js';
import { conditionOutcome } from './conditional.js';
import { entities } from './entities.js';
import { updateRequest, when } from './expressions.js';
import { getItem, indexChanges, pathAttributes, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPathPages } from './paths.js';
import { getProfile } from './profiles.js';
import { ReadBatch } from './read-batch.js';
import { transactConditional } from './transact.js';
import { sendUpdate } from './update.js';

const { conversation: layout } = entities;

/**
 * A conversation item changed between the read that decided a write and the write (a message
 * arrived, a request was accepted): the caller reads again (CONVERSATION_RACE).
 */
export class ConversationChanged extends Error {
  constructor() {
    super('The conversation changed since it was read');
    this.name = 'ConversationChanged';
  }
}

/** Tries again at once, then with short pauses: the race it answers lasts one write. */
export const CONVERSATION_RACE: RetryPolicy = {
  tries: 16,
  baseDelayMs: 5,
  maxDelayMs: 80,
  jitter: 1,
  retryable: (error) => error instanceof ConversationChanged,
};

/** Runs `attempt` (a read, then a write guarded by it) again while it meets a ConversationChanged. */
export const withConversationRetry = <T>(attempt: () => Promise<T>): Promise<T> => retry(attempt, CONVERSATION_RACE);

/** A profile's conversation, by its id (undefined: the profile is no side of it). */
export const getConversation = (profileId: string, id: string, reads?: ReadBatch) =>
  getItem(layout, keys.conversationItem(profileId, id), reads ? { reads } : { consistent: true });

/** A profile's visible conversations of one box, newest activity first. */
export const listConversations = (
  profileId: string,
  box: ConversationBox,
  request: PageRequest,
): Promise<Page<ConversationRecord>> =>
  pathPage(layout, 'byBox', { profile_id: profileId, box }, request, { order: 'newest_first' });

/** Every visible conversation of one box (the unread count's sum): the few attributes it needs. */
export async function allConversations(
  profileId: string,
  box: ConversationBox,
): Promise<Pick<ConversationRecord, 'other_profile_id' | 'unread_count'>[]> {
  const all: Pick<ConversationRecord, 'other_profile_id' | 'unread_count'>[] = [];
  const pages = queryPathPages(
    layout,
    'byBox',
    { profile_id: profileId, box },
    {
      attributes: ['other_profile_id', 'unread_count'],
    },
  );
  for await (const page of pages) all.push(...page);
  return all;
}

/** The key of a conversation's last message. */
export function lastMessageKey(
  c: Pick<ConversationRecord, 'profile_id' | 'other_profile_id' | 'last_message_at' | 'last_message_id'>,
): ItemKey {
  return {
    pk: keys.conversation(...conversationPair(c.profile_id, c.other_profile_id)),
    sk: keys.messageSortKey(c.last_message_at, c.last_message_id),
  };
}

/** A conversation item with what its API shape names: the other profile (none once erased) and the last message. */
export interface ConversationView {
  conversation: ConversationRecord;
  other: ProfileRecord | undefined;
  lastMessage: MessageRecord;
}

/**
 * Each item's other profile and last message, in ONE BatchGetItem for the whole page. An item
 * whose profile is gone (erased) stays, its other side read as deleted: the erasure pointed it at
 * the last message its owner wrote, or deleted it when none was left (erasure-conversations.ts).
 */
export async function conversationViews(items: readonly ConversationRecord[]): Promise<ConversationView[]> {
  const reads = new ReadBatch();
  const views = await Promise.all(
    items.map(async (conversation) => {
      const [other, lastMessage] = await Promise.all([
        getProfile(conversation.other_profile_id, reads),
        getItem(entities.message, lastMessageKey(conversation), { reads }),
      ]);
      return lastMessage ? [{ conversation, other, lastMessage }] : [];
    }),
  );
  return views.flat();
}

/** The messages of a conversation newest first, page by page (a read mark's count). */
export const conversationMessagePages = (a: string, b: string) =>
  queryPathPages(
    entities.message,
    'conversation',
    { sender_profile_id: a, recipient_profile_id: b },
    { order: 'newest_first', consistent: true },
  );

/**
 * Moves the owner's read mark to `upTo` with `unread` messages left, and the other side's copy
 * of it, if nothing arrived since `seen` was read (its last message) and the mark is where it was
 * read; else ConversationChanged. The other side's item says `read_by_other`: the event log's
 * consumer makes its `conversation.read` of that image.
 */
export async function moveReadMark(
  seen: ConversationRecord,
  upTo: { id: string; created_at: string },
  unread: number,
): Promise<void> {
  const outcome = await transactConditional([
    {
      Update: updateRequest({
        key: keys.conversationItem(seen.profile_id, seen.id),
        set: { unread_count: unread, read_up_to: upTo.id, read_up_to_at: upTo.created_at, last_change: 'read' },
        when: [
          when.is('last_message_id', seen.last_message_id),
          seen.read_up_to ? when.is('read_up_to', seen.read_up_to) : when.lacks('read_up_to'),
        ],
      }),
    },
    {
      Update: updateRequest({
        key: keys.conversationItem(seen.other_profile_id, seen.id),
        set: { other_read_up_to: upTo.id, last_change: 'read_by_other' },
        when: when.exists(),
      }),
    },
  ]);
  if (!outcome.ok) throw new ConversationChanged();
}

/**
 * Hides the conversation from its owner's lists until the next message (off its index, which the
 * next message's update puts it back on); false when the profile has no such conversation.
 */
export async function hideConversation(profileId: string, id: string): Promise<boolean> {
  return withConversationRetry(async () => {
    const current = await getConversation(profileId, id);
    if (!current) return false;
    const { set, remove } = indexChanges(layout, { ...current, hidden: true });
    const outcome = await conditionOutcome(
      sendUpdate({
        key: keys.conversationItem(profileId, id),
        set: { ...set, hidden: true, last_change: 'hidden' },
        remove,
        when: when.is('last_message_id', current.last_message_id),
      }),
    );
    if (!outcome.held) throw new ConversationChanged();
    return true;
  });
}

/** Where a read mark at message `upTo` leaves the owner: that message, and the other side's messages after it. */
export async function readTarget(
  c: ConversationRecord,
  upTo: string,
): Promise<{ id: string; created_at: string; unread: number } | undefined> {
  let unread = 0;
  for await (const page of conversationMessagePages(c.profile_id, c.other_profile_id)) {
    for (const message of page) {
      if (message.id === upTo) return { id: message.id, created_at: message.created_at, unread };
      if (message.sender_profile_id === c.other_profile_id) unread++;
    }
  }
  return undefined;
}

/**
 * Moves a conversation from requests to the inbox (it stays hidden if it was); answers the item
 * as it is after, undefined when the profile has no such conversation.
 */
export async function acceptConversation(profileId: string, id: string): Promise<ConversationRecord | undefined> {
  return withConversationRetry(async () => {
    const current = await getConversation(profileId, id);
    if (!current || current.box === 'inbox') return current;
    const accepted = { ...current, box: 'inbox' as const };
    const outcome = await conditionOutcome(
      sendUpdate({
        key: keys.conversationItem(profileId, id),
        set: { box: 'inbox', ...pathAttributes(layout.paths, accepted), last_change: 'accepted' },
        when: [when.is('box', 'requests'), when.is('last_message_id', current.last_message_id)],
        returns: 'ALL_NEW',
      }),
    );
    if (!outcome.held) throw new ConversationChanged();
    return recordOrUndefined(layout, outcome.result.Attributes);
  });
}
