/**
 * Conversations as each side sees them (API.md "Live": conversations, message requests): one
 * record per participant, its box, unread count and read marks, and who may message a profile.
 * Pure: the store writes these records in the message send's own transaction.
 */

export const CONVERSATION_BOXES = ['inbox', 'requests'] as const;
export type ConversationBox = (typeof CONVERSATION_BOXES)[number];

export const ALLOW_MESSAGES_FROM = ['everyone', 'following', 'nobody'] as const;
export type AllowMessagesFrom = (typeof ALLOW_MESSAGES_FROM)[number];

/** Until a profile changes it, anyone may message it (first messages from strangers land in requests). */
export const DEFAULT_ALLOW_MESSAGES_FROM: AllowMessagesFrom = 'everyone';

/**
 * What the last write of a conversation item was: every write says it, so a stream image tells
 * which change made it (the event log's consumer takes `message` and `read_by_other`; the table
 * streams new images only, so nothing else could tell a read mark from a send).
 */
export const CONVERSATION_CHANGES = ['message', 'read', 'read_by_other', 'hidden', 'accepted'] as const;
export type ConversationChange = (typeof CONVERSATION_CHANGES)[number];

/** One participant's conversation with one other profile; `id` is the pair's (`conversationId`), the same on both sides. */
export interface ConversationRecord {
  id: string;
  profile_id: string;
  other_profile_id: string;
  box: ConversationBox;
  /** Hidden by its owner (DELETE): off the lists until the next message. */
  hidden: boolean;
  last_message_id: string;
  last_message_at: string;
  /** Messages from the other side after the owner's read mark. */
  unread_count: number;
  /** The owner's read mark: the last message it has read, and that message's created_at. */
  read_up_to?: string | null;
  read_up_to_at?: string | null;
  /** The other side's read mark as the owner sees it. */
  other_read_up_to?: string | null;
  /** The last activity (the last message's time): the lists' order. */
  updated_at: string;
  /** What the last write of the item was. */
  last_change?: ConversationChange;
}

export interface MessageSettingsRecord {
  profile_id: string;
  allow_messages_from: AllowMessagesFrom;
  updated_at: string;
}

/** Whether a profile whose setting is `setting` takes a message from a sender it follows or not. */
export function allowsMessageFrom(setting: AllowMessagesFrom, recipientFollowsSender: boolean): boolean {
  if (setting === 'nobody') return false;
  return setting === 'everyone' || recipientFollowsSender;
}

/**
 * Where a message lands on the recipient's side: where the conversation already is, else the
 * inbox when the recipient follows the sender and requests when it does not.
 */
export const recipientBox = (
  existing: Pick<ConversationRecord, 'box'> | undefined,
  recipientFollowsSender: boolean,
): ConversationBox => existing?.box ?? (recipientFollowsSender ? 'inbox' : 'requests');

/**
 * A message's time in its conversation: now, or just after the conversation's last message when
 * the clock has not passed it (a send that lost a race to another one of the pair in the same
 * millisecond), so the last message both sides' items name is always the newest by key.
 */
export function messageTimeAfter(now: Date, lastMessageAt: string | undefined): string {
  const at = now.getTime();
  const after = lastMessageAt === undefined ? at : Date.parse(lastMessageAt) + 1;
  return new Date(Math.max(at, after)).toISOString();
}

/**
 * A read mark only moves forward: `candidateAt` (a message's created_at and id) is past the mark
 * the record holds. Message times sort as text (ISO 8601), ties broken by id, as their keys do.
 */
export function movesReadMarkForward(
  record: Pick<ConversationRecord, 'read_up_to' | 'read_up_to_at'>,
  candidate: { id: string; created_at: string },
): boolean {
  if (!record.read_up_to || !record.read_up_to_at) return true;
  const current = `${record.read_up_to_at}#${record.read_up_to}`;
  return `${candidate.created_at}#${candidate.id}` > current;
}
