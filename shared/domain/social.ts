/** Follows and direct messages: records and pure rules. */

export interface FollowRecord {
  follower_profile_id: string;
  followed_profile_id: string;
  created_at: string;
}

export interface MessageRecord {
  id: string;
  sender_profile_id: string;
  recipient_profile_id: string;
  body: string;
  created_at: string;
}

/** Both directions of a conversation share one partition: the two ids in sorted order. */
export const conversationPair = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);
