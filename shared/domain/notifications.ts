/**
 * Notifications: what happened to one profile (API.md "Conversations"). The reasons, their
 * subjects, which of them group, the per-reason preferences, and the grouping rule a batch of
 * likes or follows is folded into an open group by. Pure: no AWS, no HTTP.
 */
import { idFromParts } from './ids.js';

export const NOTIFICATION_REASONS = [
  'mention',
  'reply',
  'quote',
  'comment',
  'comment_reply',
  'like',
  'comment_like',
  'follow',
  'access_invitation',
  'access_accepted',
  // Moderation notices: no profile acted (actors is empty), see notificationOf.
  'report_resolved',
  'content_removed',
] as const;
export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

export const SUBJECT_TYPES = ['post', 'comment', 'profile', 'access_grant', 'report'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** A reason's subject type (or types), and whether it keeps one notification per subject while unseen. */
type ReasonShape = { subject: SubjectType | readonly SubjectType[]; grouped: boolean };

export const REASONS: Record<NotificationReason, ReasonShape> = {
  mention: { subject: 'post', grouped: false },
  reply: { subject: 'post', grouped: false },
  quote: { subject: 'post', grouped: false },
  comment: { subject: 'comment', grouped: false },
  comment_reply: { subject: 'comment', grouped: false },
  like: { subject: 'post', grouped: true },
  comment_like: { subject: 'comment', grouped: true },
  follow: { subject: 'profile', grouped: true },
  access_invitation: { subject: 'access_grant', grouped: false },
  access_accepted: { subject: 'access_grant', grouped: false },
  report_resolved: { subject: 'report', grouped: false },
  content_removed: { subject: ['post', 'comment'], grouped: false },
};

export type GroupedReason = 'like' | 'comment_like' | 'follow';

export const isReason = (value: string): value is NotificationReason =>
  (NOTIFICATION_REASONS as readonly string[]).includes(value);

/** How many actors a notification shows (the newest first); `actors_count` counts them all. */
export const SHOWN_ACTORS = 3;

/** Kept this long after their last update (DynamoDB TTL once seen; see store/notifications.ts). */
export const NOTIFICATION_RETENTION_DAYS = 90;

export const PREFERENCE_VALUES = ['all', 'following', 'none'] as const;
export type PreferenceValue = (typeof PREFERENCE_VALUES)[number];
/** `none`: no notification is written for what an `agent` profile did (API.md "Accountable agents"). */
export const FROM_AGENTS_VALUES = ['all', 'none'] as const;
export type FromAgents = (typeof FROM_AGENTS_VALUES)[number];
export type NotificationPreferences = Record<NotificationReason, PreferenceValue> & { from_agents: FromAgents };

/** Every reason `all` until changed, agents' actions included. */
export const defaultPreferences = (): NotificationPreferences =>
  ({
    ...Object.fromEntries(NOTIFICATION_REASONS.map((reason) => [reason, 'all'])),
    from_agents: 'all',
  }) as NotificationPreferences;

/** The stored preferences (possibly partial, possibly from an older list of reasons) over the defaults. */
export function preferencesOf(stored: Partial<Record<string, string>> | undefined): NotificationPreferences {
  const preferences = defaultPreferences();
  for (const reason of NOTIFICATION_REASONS) {
    const value = stored?.[reason];
    if (value && (PREFERENCE_VALUES as readonly string[]).includes(value))
      preferences[reason] = value as PreferenceValue;
  }
  if (stored?.from_agents === 'none') preferences.from_agents = 'none';
  return preferences;
}

/** One notification as stored: the ids of what it is about; the API presents them hydrated. */
export interface NotificationRecord {
  id: string;
  recipient_id: string;
  reason: NotificationReason;
  subject_type: SubjectType;
  subject_id: string;
  /** The post the reason is about, or that the comment belongs to. */
  post_id: string | null;
  comment_id: string | null;
  /** The newest actors first, at most SHOWN_ACTORS. */
  actor_ids: string[];
  actors_count: number;
  seen: boolean;
  created_at: string;
  updated_at: string;
}

/** What a stream record says happened to whom, before the recipient's preferences are applied. */
export interface NotificationDraft {
  /** The source, spelled so that a replay or a duplicate of it names the same notification. */
  source: string;
  recipient_id: string;
  /** The profile that acted; null for a moderation notice, which the platform sends. */
  actor_id: string | null;
  /**
   * Whether that profile is an `agent`, read from the event's own profile so `from_agents` needs no
   * read; absent where the source does not carry the actor's type (platform notices, a grant's
   * invitation), which no `from_agents` setting then holds back.
   */
  actor_automated?: boolean;
  reason: NotificationReason;
  subject_type: SubjectType;
  subject_id: string;
  post_id: string | null;
  comment_id: string | null;
  at: string;
}

/** A notification id that a replay of the same source derives again, so a repeated write finds the first. */
export const notificationIdFor = (source: string): string => idFromParts(source);

/** The notification a single (ungrouped) draft becomes. */
export function notificationOf(draft: NotificationDraft): NotificationRecord {
  return {
    id: notificationIdFor(draft.source),
    recipient_id: draft.recipient_id,
    reason: draft.reason,
    subject_type: draft.subject_type,
    subject_id: draft.subject_id,
    post_id: draft.post_id,
    comment_id: draft.comment_id,
    actor_ids: draft.actor_id === null ? [] : [draft.actor_id],
    actors_count: draft.actor_id === null ? 0 : 1,
    seen: false,
    created_at: draft.at,
    updated_at: draft.at,
  };
}

/**
 * Whether the recipient's preference for the reason keeps a notification by this actor:
 * `following` needs to know whether the recipient follows the actor. (A notice no profile sent,
 * `actor_id` null, is kept by `following` as by `all`: the filter is on profiles, and there is none.)
 */
export function keeps(preference: PreferenceValue, recipientFollowsActor: () => boolean): boolean {
  return preference === 'all' || (preference === 'following' && recipientFollowsActor());
}

/** One like or follow made (`added`) or undone (`removed`), in stream order. */
export interface GroupChange {
  actor_id: string;
  change: 'added' | 'removed';
}

/** What a group remembers between batches while it is open. */
export interface GroupState {
  /** The open notification's newest actors and count; undefined when no group is open. */
  open: { actor_ids: readonly string[]; actors_count: number } | undefined;
  /**
   * Profiles that undid their like or follow since the inbox was last seen: a like by one of them
   * is a repeat, not a new actor (a profile counts once per group, however often it likes,
   * unlikes and likes again).
   */
  left: readonly string[];
}

export interface GroupOutcome {
  /** The actors the batch added, newest first (none: the batch opens or updates nothing). */
  added: string[];
  actor_ids: string[];
  actors_count: number;
  left: string[];
}

/**
 * Folds one batch of changes (in stream order, already filtered to actors the recipient's
 * preferences keep and never the recipient) into a group: a new actor counts once and goes
 * first; a removal is remembered (never withdraws); a repeat adds nothing.
 */
export function foldGroup(state: GroupState, changes: readonly GroupChange[]): GroupOutcome {
  const counted = new Set(state.open?.actor_ids ?? []);
  const left = new Set(state.left);
  const added: string[] = [];
  for (const { actor_id, change } of changes) {
    if (change === 'removed') {
      left.add(actor_id);
      continue;
    }
    if (left.has(actor_id) || counted.has(actor_id)) continue;
    counted.add(actor_id);
    added.push(actor_id);
  }
  added.reverse();
  const actors = [...added, ...(state.open?.actor_ids ?? []).filter((id) => !added.includes(id))];
  return {
    added,
    actor_ids: actors.slice(0, SHOWN_ACTORS),
    actors_count: (state.open?.actors_count ?? 0) + added.length,
    left: [...left],
  };
}

/** A `seen_at` may not be later than the moment the request is answered. */
export const seenAtAllowed = (seenAt: Date, now: Date): boolean => seenAt.getTime() <= now.getTime();
