/** Reports and their resolution by moderators: records, factories and pure rules (no AWS, no HTTP). */
import { newId } from './ids.js';

export const REPORT_SUBJECT_TYPES = ['post', 'comment', 'profile', 'message'] as const;
export type ReportSubjectType = (typeof REPORT_SUBJECT_TYPES)[number];

export const REPORT_REASONS = [
  'spam',
  'harassment',
  'hate',
  'violence',
  'sexual',
  'self_harm',
  'impersonation',
  'misinformation',
  'illegal',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const MAX_REPORT_DETAILS = 1000;

export const MODERATION_ACTIONS = ['dismiss', 'remove_content', 'suspend_profile'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export type ReportResolution = 'dismissed' | 'content_removed' | 'profile_suspended';
export type ReportStatus = 'open' | 'resolved';

/** What a resolution's action records on each report it closes. */
export const RESOLUTION_OF: Record<ModerationAction, ReportResolution> = {
  dismiss: 'dismissed',
  remove_content: 'content_removed',
  suspend_profile: 'profile_suspended',
};

/** The platform role a user may hold besides their workspace roles. */
export type PlatformRole = 'moderator';

export interface ReportSubject {
  subject_type: ReportSubjectType;
  subject_id: string;
}

export interface ReportRecord extends ReportSubject {
  id: string;
  reporter_profile_id: string;
  reason: ReportReason;
  details: string | null;
  status: ReportStatus;
  resolution: ReportResolution | null;
  created_at: string;
  resolved_at: string | null;
}

/**
 * A reported subject as the moderation queue shows it: its reports of the current round (open
 * ones, or the ones its last resolution closed) and the subject as its own read answered it when
 * it was first reported.
 */
export interface ReportedSubjectRecord extends ReportSubject {
  status: ReportStatus;
  open_reports: number;
  /** Reports per reason of the current round. */
  reasons: Partial<Record<ReportReason, number>>;
  first_reported_at: string;
  snapshot: unknown;
  /** The profile whose content or self the subject is (a suspension's target). */
  owner_profile_id: string;
  resolution: ReportResolution | null;
  resolved_at: string | null;
  note: string | null;
}

/**
 * Whether moderation suspended the profile, or its erasure is scheduled or running (it reads as a
 * suspended one until then: API.md "Account deletion"). An absent profile is not "suspended": it
 * is not there.
 */
export const isSuspended = (
  profile: { suspended_at?: string | null | undefined; deletion_scheduled_at?: string | null | undefined } | undefined,
): boolean => Boolean(profile?.suspended_at ?? profile?.deletion_scheduled_at);

/** The reports a subject's current round counts: its open ones, or those its last resolution closed. */
export const roundReports = (subject: Pick<ReportedSubjectRecord, 'reasons'>): number =>
  Object.values(subject.reasons).reduce((sum, n) => sum + (n ?? 0), 0);

/** A new open report by the reporter. */
export function newReport(
  now: Date,
  reporterProfileId: string,
  fields: ReportSubject & { reason: ReportReason; details?: string | null | undefined },
): ReportRecord {
  return {
    id: newId(),
    subject_type: fields.subject_type,
    subject_id: fields.subject_id,
    reporter_profile_id: reporterProfileId,
    reason: fields.reason,
    details: fields.details ?? null,
    status: 'open',
    resolution: null,
    created_at: now.toISOString(),
    resolved_at: null,
  };
}

/**
 * The subject after one more report: a subject that was resolved opens a new round (its reasons
 * counted afresh); the first report of all keeps its snapshot and time for good.
 */
export function reportedOnce(
  before: ReportedSubjectRecord | undefined,
  report: ReportRecord,
  firstSeen: { snapshot: unknown; owner_profile_id: string },
): ReportedSubjectRecord {
  const reopened = before?.status !== 'open';
  const reasons = reopened ? {} : { ...before.reasons };
  reasons[report.reason] = (reasons[report.reason] ?? 0) + 1;
  return {
    subject_type: report.subject_type,
    subject_id: report.subject_id,
    status: 'open',
    open_reports: (reopened ? 0 : before.open_reports) + 1,
    reasons,
    first_reported_at: before?.first_reported_at ?? report.created_at,
    snapshot: before ? before.snapshot : firstSeen.snapshot,
    owner_profile_id: before?.owner_profile_id ?? firstSeen.owner_profile_id,
    resolution: null,
    resolved_at: null,
    note: null,
  };
}

/** The subject once a moderator resolved its open reports. */
export function resolvedSubject(
  before: ReportedSubjectRecord,
  action: ModerationAction,
  note: string | null,
  now: Date,
): ReportedSubjectRecord {
  return {
    ...before,
    status: 'resolved',
    open_reports: 0,
    resolution: RESOLUTION_OF[action],
    resolved_at: now.toISOString(),
    note,
  };
}

/** Which actions a subject type takes: content is removed from posts and comments only. */
export function actionApplies(subjectType: ReportSubjectType, action: ModerationAction): boolean {
  return action !== 'remove_content' || subjectType === 'post' || subjectType === 'comment';
}

const RANK_DIGITS = 10;
const RANK_CEILING = 10 ** RANK_DIGITS - 1;

/**
 * A subject's place in the moderation queue as a sort key that ascends: most reports of the
 * current round first, then the longest waiting, then the subject for uniqueness.
 */
export const queueRank = (subject: ReportedSubjectRecord): string =>
  `${String(RANK_CEILING - Math.min(roundReports(subject), RANK_CEILING)).padStart(RANK_DIGITS, '0')}#${subject.first_reported_at}#${subject.subject_type}#${subject.subject_id}`;
