/** Follows and direct messages: records, their factories and pure rules. */
import type { Disclosure } from './disclosure.js';
import { idFromParts, newId } from './ids.js';

export interface FollowRecord {
  follower_profile_id: string;
  followed_profile_id: string;
  created_at: string;
}

export interface MessageRecord extends Disclosure {
  id: string;
  sender_profile_id: string;
  recipient_profile_id: string;
  body: string;
  created_at: string;
  /** Landed in the recipient's message requests: nothing tells the recipient of it (no event) until accepted. */
  request?: boolean;
}

/** Both directions of a conversation share one partition: the two ids in sorted order. */
export const conversationPair = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

/** A conversation's id is the same for both sides: derived from the pair, never stored as a lookup. */
export const conversationId = (a: string, b: string): string => idFromParts('conversation', ...conversationPair(a, b));

export const newFollow = (now: Date, followerId: string, followedId: string): FollowRecord => ({
  follower_profile_id: followerId,
  followed_profile_id: followedId,
  created_at: now.toISOString(),
});

export const newMessage = (
  now: Date,
  senderId: string,
  recipientId: string,
  body: string,
  disclosure: Disclosure,
): MessageRecord => ({
  id: newId(),
  sender_profile_id: senderId,
  recipient_profile_id: recipientId,
  body,
  created_at: now.toISOString(),
  automated: disclosure.automated,
  via: disclosure.via,
});
