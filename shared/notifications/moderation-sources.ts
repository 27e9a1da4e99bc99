/**
 * The moderation notices the table stream tells of: a report closed by a moderator (its item
 * turns `resolved` once, never again: `report_resolved` to its reporter), and a reported post or
 * comment whose subject summary turns `resolved` with `content_removed` (one record per resolution:
 * `content_removed` to its author, once the content is read back as removed by moderation).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import type { NotificationDraft } from '../domain/notifications.js';
import { decodeImage, type Decoded } from '../pipeline/decode.js';
import { entityTags } from '../store/keys.js';

const ResolvedReport = z.object({
  id: z.string(),
  reporter_profile_id: z.string(),
  status: z.literal('resolved'),
  resolved_at: z.string(),
});

const RemovedContentSubject = z.object({
  subject_type: z.enum(['post', 'comment']),
  subject_id: z.string(),
  status: z.literal('resolved'),
  resolution: z.literal('content_removed'),
  resolved_at: z.string(),
});

/** A post or comment a moderator's resolution removed: its author is found by reading it. */
export interface ContentRemoval {
  subject_type: 'post' | 'comment';
  subject_id: string;
  at: string;
}

/** The notice to the reporter of a resolved report; the report's id names it, so a replay finds the first. */
export const reportResolvedDraft = (report: z.infer<typeof ResolvedReport>): NotificationDraft => ({
  source: `report:${report.id}:resolved`,
  recipient_id: report.reporter_profile_id,
  actor_id: null,
  reason: 'report_resolved',
  subject_type: 'report',
  subject_id: report.id,
  post_id: null,
  comment_id: null,
  at: report.resolved_at,
});

export type ModerationNotice =
  { kind: 'single'; draft: NotificationDraft } | { kind: 'removal'; removal: ContentRemoval };

/** The moderation notice of a stream record, undefined when it tells of none, or why it is malformed. */
export function moderationNoticeOf(record: DynamoDBRecord): Decoded<ModerationNotice> | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'MODIFY' || image?.status?.S !== 'resolved') return undefined;
  const entity = image.entity?.S;
  if (entity === entityTags.report) {
    const report = decodeImage(ResolvedReport, image);
    return report.ok ? { ok: true, record: { kind: 'single', draft: reportResolvedDraft(report.record) } } : report;
  }
  if (entity === entityTags.reportedSubject && image.resolution?.S === 'content_removed') {
    const subject = decodeImage(RemovedContentSubject, image);
    if (!subject.ok) return subject;
    const { subject_type, subject_id, resolved_at } = subject.record;
    return { ok: true, record: { kind: 'removal', removal: { subject_type, subject_id, at: resolved_at } } };
  }
  return undefined;
}
