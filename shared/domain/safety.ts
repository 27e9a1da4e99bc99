/**
 * Blocks and mutes between profiles, and what one profile's sets of them hide from it. Pure: the
 * sets are read once per request (store/safety.ts) and every read and write path asks this.
 */

/** `blocker` blocks `blocked`: neither may interact with the other, and each leaves the other's views. */
export interface BlockRecord {
  blocker_profile_id: string;
  blocked_profile_id: string;
  created_at: string;
}

/** `muter` mutes `muted`: the muted's content leaves the muter's views; nothing changes for the muted. */
export interface MuteRecord {
  muter_profile_id: string;
  muted_profile_id: string;
  created_at: string;
}

/** One profile's safety sets: whom it blocks, who blocks it, whom it mutes. */
export interface SafetySets {
  blocks: ReadonlySet<string>;
  blockedBy: ReadonlySet<string>;
  mutes: ReadonlySet<string>;
}

/**
 * What the acting profile of a request must not see or touch. `hidesAuthor`: content by that
 * profile is left out of lists and reads (blocked either way, or muted). `isBlockedWith`: a block
 * stands between the two (either way): interactions are refused and direct reads answer 404.
 */
export interface ViewerFilter {
  hidesAuthor(profileId: string): boolean;
  isBlockedWith(profileId: string): boolean;
}

/** Anonymous reads (and requests without an acting profile): public is public. */
export const NO_VIEWER_FILTER: ViewerFilter = {
  hidesAuthor: () => false,
  isBlockedWith: () => false,
};

export const EMPTY_SAFETY_SETS: SafetySets = { blocks: new Set(), blockedBy: new Set(), mutes: new Set() };

export function viewerFilterOf(sets: SafetySets): ViewerFilter {
  const isBlockedWith = (profileId: string) => sets.blocks.has(profileId) || sets.blockedBy.has(profileId);
  return {
    isBlockedWith,
    hidesAuthor: (profileId) => isBlockedWith(profileId) || sets.mutes.has(profileId),
  };
}

export const newBlock = (now: Date, blockerId: string, blockedId: string): BlockRecord => ({
  blocker_profile_id: blockerId,
  blocked_profile_id: blockedId,
  created_at: now.toISOString(),
});

export const newMute = (now: Date, muterId: string, mutedId: string): MuteRecord => ({
  muter_profile_id: muterId,
  muted_profile_id: mutedId,
  created_at: now.toISOString(),
});

/** Who may reply within a thread or comment on its posts, set on its root post. */
export const REPLY_POLICIES = ['everyone', 'following', 'mentioned'] as const;
export type ReplyPolicy = (typeof REPLY_POLICIES)[number];

/**
 * Whether the root post's policy lets `actor` reply anywhere in its thread or comment on any of its
 * posts: the root's author always; `following`: the profiles the root's author follows
 * (`authorFollowsActor`); `mentioned`: the profiles the root post mentions (`mentioned`: its
 * lower-cased `@usernames`).
 */
export function replyPolicyAllows(
  root: { profile_id: string; reply_policy: ReplyPolicy },
  actor: { id: string; username: string },
  facts: { authorFollowsActor: boolean; mentioned: readonly string[] },
): boolean {
  if (actor.id === root.profile_id) return true;
  switch (root.reply_policy) {
    case 'everyone':
      return true;
    case 'following':
      return facts.authorFollowsActor;
    case 'mentioned':
      return facts.mentioned.includes(actor.username.toLowerCase());
  }
}
