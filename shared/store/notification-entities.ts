/**
 * The records of the notifications' items (their layouts are in entities.ts, keys in keys.ts): a
 * profile's notifications, its unread count and preferences in one partition (`NOTIF#<profile>`),
 * listed by `updated_at` on a named path; a grouped reason's state per subject in a partition of
 * its own.
 */
import { NOTIFICATION_RETENTION_DAYS, type NotificationRecord, type GroupedReason } from '../domain/notifications.js';
import { epochSeconds } from './epoch.js';

/** When a seen notification (or a group's state) may be deleted: 90 days after its last update. */
export const notificationExpiresAt = (updatedAt: string) =>
  epochSeconds(updatedAt) + NOTIFICATION_RETENTION_DAYS * 86_400;

/** A notification as stored: a grouped one carries the version of its group's state it shows. */
export type StoredNotification = NotificationRecord & { group_version?: number };

/**
 * A grouped reason's state for one (recipient, reason, subject): the open group (its listed
 * notification's id and what it shows) or none, the profiles that undid their like or follow
 * since the group was last seen, and a version every write moves (the condition of the next).
 */
export interface GroupStateRecord {
  recipient_id: string;
  reason: GroupedReason;
  subject_id: string;
  /** How many groups this subject has opened: the next one's id derives from it. */
  generation: number;
  open_id: string | null;
  actor_ids: string[];
  actors_count: number;
  left: string[];
  version: number;
  updated_at: string;
}

export interface UnreadRecord {
  recipient_id: string;
  unread: number;
}

export type PreferencesRecord = { recipient_id: string } & Partial<Record<string, string>>;
