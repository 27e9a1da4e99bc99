/**
 * Conversations, one item per participant (keys.ts `CONV#<profile>`): the two updates a message
 * send adds to its own transaction, the lists by box, read marks, hide and accept, and who may
 * message a profile. Unread counts move only by `ADD` in the send or under a condition on what a
 * read mark read, so two sends at once, or a send racing a read mark, leave them exact.
 */
import {
  DEFAULT_ALLOW_MESSAGES_FROM,
  type AllowMessagesFrom,
  type ConversationBox,
  type ConversationRecord,
} from '../domain/conversations.js';
import type { ProfileRecord } from '../domain/entities.js';
import { conversationId, conversationPair, type MessageRecord } from '../domain/social.js';
import { retry, type RetryPolicy } from '../pipeline/retry.js';
import type { ItemKey } from './batch.js';
import { entities } from './entities.js';
import { updateRequest, when } from './expressions.js';
import { getItem, indexChanges, pathAttributes, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPathPages } from './paths.js';
import { getProfile } from './profiles.js';
import { ReadBatch } from './read-batch.js';
import { transactConditional, type TransactItem } from './transact.js';
import { sendUpdate } from './update.js';
import { conditionOutcome } from './conditional.js';

const { conversation: layout, messageSettings: settingsLayout } = entities;

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

/** What a send needs of the recipient's side. */
export interface SendContext {
  recipient: ProfileRecord | undefined;
  allowMessagesFrom: AllowMessagesFrom;
  recipientFollowsSender: boolean;
  /** The recipient's item of the conversation, when it has one. */
  recipientConversation: ConversationRecord | undefined;
}

/**
 * The recipient's profile, its message setting, whether it follows the sender and its item of the
 * conversation: four keys in ONE strongly consistent BatchGetItem, the round trip the send made
 * for the profile alone before conversations.
 */
export async function readSendContext(senderId: string, recipientId: string): Promise<SendContext> {
  const reads = new ReadBatch();
  const [recipient, settings, follow, recipientConversation] = await Promise.all([
    getProfile(recipientId, reads),
    getItem(settingsLayout, keys.messageSettings(recipientId), { reads }),
    reads.get(keys.follow(recipientId, senderId)),
    getItem(layout, keys.conversationItem(recipientId, conversationId(senderId, recipientId)), { reads }),
  ]);
  return {
    recipient,
    allowMessagesFrom: settings?.allow_messages_from ?? DEFAULT_ALLOW_MESSAGES_FROM,
    recipientFollowsSender: follow !== undefined,
    recipientConversation,
  };
}

/** One side's item as a message leaves it: on the box's list at the message's time, not hidden. */
function sideOfSend(
  message: MessageRecord,
  owner: string,
  other: string,
  box: ConversationBox,
  unread: 0 | 1,
  guard: Parameters<typeof updateRequest>[0]['when'],
): TransactItem {
  const placed = {
    id: conversationId(owner, other),
    profile_id: owner,
    box,
    hidden: false,
    updated_at: message.created_at,
  };
  return {
    Update: updateRequest({
      key: keys.conversationItem(owner, placed.id),
      set: {
        entity: layout.entity,
        ...placed,
        ...pathAttributes(layout.paths, placed),
        other_profile_id: other,
        last_message_id: message.id,
        last_message_at: message.created_at,
      },
      // ADD creates the count at 0 or 1: concurrent sends add up instead of overwriting.
      add: { unread_count: unread },
      when: guard,
    }),
  };
}

/**
 * The send's two conversation updates, first in its transaction: the sender's side in its inbox
 * (sending is accepting), and the recipient's in `box` with one more unread message, guarded by
 * what the send read of it (its box and last message then, or its absence). Every send of the
 * pair, either way, changes the recipient's last message, so the guard puts the pair's sends in
 * one order (each after the last message it read: messageTimeAfter) and a concurrent accept sends
 * the send back to read again (index 1 refused: ConversationChanged).
 */
export function conversationSendItems(
  message: MessageRecord,
  box: ConversationBox,
  recipientBefore: Pick<ConversationRecord, 'box' | 'last_message_id'> | undefined,
): TransactItem[] {
  const { sender_profile_id: sender, recipient_profile_id: recipient } = message;
  const unchanged = recipientBefore
    ? [when.is('box', recipientBefore.box), when.is('last_message_id', recipientBefore.last_message_id)]
    : when.absent();
  return [
    sideOfSend(message, sender, recipient, 'inbox', 0, undefined),
    sideOfSend(message, recipient, sender, box, 1, unchanged),
  ];
}

/** The index of the recipient's update among `conversationSendItems`: its refusal means "read again". */
export const RECIPIENT_SIDE_INDEX = 1;

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

/** A conversation item with what its API shape names: the other profile and the last message. */
export interface ConversationView {
  conversation: ConversationRecord;
  other: ProfileRecord;
  lastMessage: MessageRecord;
}

/**
 * Each item's other profile and last message, in ONE BatchGetItem for the whole page; an item
 * whose profile is gone (deleted) is left out.
 */
export async function conversationViews(items: readonly ConversationRecord[]): Promise<ConversationView[]> {
  const reads = new ReadBatch();
  const views = await Promise.all(
    items.map(async (conversation) => {
      const [other, lastMessage] = await Promise.all([
        getProfile(conversation.other_profile_id, reads),
        getItem(entities.message, lastMessageKey(conversation), { reads }),
      ]);
      return other && lastMessage ? [{ conversation, other, lastMessage }] : [];
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
 * read; else ConversationChanged.
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
        set: { unread_count: unread, read_up_to: upTo.id, read_up_to_at: upTo.created_at },
        when: [
          when.is('last_message_id', seen.last_message_id),
          seen.read_up_to ? when.is('read_up_to', seen.read_up_to) : when.lacks('read_up_to'),
        ],
      }),
    },
    {
      Update: updateRequest({
        key: keys.conversationItem(seen.other_profile_id, seen.id),
        set: { other_read_up_to: upTo.id },
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
        set: { ...set, hidden: true },
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
        set: { box: 'inbox', ...pathAttributes(layout.paths, accepted) },
        when: [when.is('box', 'requests'), when.is('last_message_id', current.last_message_id)],
        returns: 'ALL_NEW',
      }),
    );
    if (!outcome.held) throw new ConversationChanged();
    return recordOrUndefined(layout, outcome.result.Attributes);
  });
}

/** Who may message the profile (`everyone` until changed). */
export async function getMessageSettings(profileId: string): Promise<AllowMessagesFrom> {
  const stored = await getItem(settingsLayout, keys.messageSettings(profileId), { consistent: true });
  return stored?.allow_messages_from ?? DEFAULT_ALLOW_MESSAGES_FROM;
}

export async function setMessageSettings(
  profileId: string,
  allowMessagesFrom: AllowMessagesFrom,
  updatedAt: string,
): Promise<void> {
  await sendUpdate({
    key: keys.messageSettings(profileId),
    set: {
      entity: settingsLayout.entity,
      profile_id: profileId,
      allow_messages_from: allowMessagesFrom,
      updated_at: updatedAt,
    },
  });
}
