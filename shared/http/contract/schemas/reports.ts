import * as z from 'zod';
import {
  MAX_REPORT_DETAILS,
  MODERATION_ACTIONS,
  REPORT_REASONS,
  REPORT_SUBJECT_TYPES,
} from '../../../domain/reports.js';
import { PageQuery, Timestamp, Uuid } from './common.js';

export const ReportSubjectType = z.enum(REPORT_SUBJECT_TYPES);
export const ReportReason = z.enum(REPORT_REASONS);

export const CreateReportBody = z.strictObject({
  subject_type: ReportSubjectType,
  subject_id: Uuid.meta({
    description: 'A post, comment or profile the acting profile can read, or a message it sent or received (else 404).',
  }),
  reason: ReportReason,
  details: z.string().max(MAX_REPORT_DETAILS).optional(),
});

export const Report = z
  .object({
    id: Uuid,
    subject_type: ReportSubjectType,
    subject_id: Uuid,
    reason: ReportReason,
    details: z.string().nullable(),
    status: z.enum(['open', 'resolved']),
    resolution: z.enum(['dismissed', 'content_removed', 'profile_suspended']).nullable(),
    created_at: Timestamp,
    resolved_at: Timestamp.nullable(),
  })
  .meta({ id: 'Report' });

export const ReportResult = z.object({ report: Report });

export const ReportedSubject = z
  .object({
    subject_type: ReportSubjectType,
    subject_id: Uuid,
    snapshot: z.record(z.string(), z.unknown()).meta({
      description:
        'The subject as its own read answered it when it was first reported: `{ post, profile }`, `{ comment, profile }`, a Profile, or the Message.',
    }),
    open_reports: z.number().int().min(0),
    reasons: z
      .partialRecord(ReportReason, z.number().int().min(1))
      .meta({ description: 'Reports per reason: of the open reports, or of those the last resolution closed.' }),
    first_reported_at: Timestamp,
    status: z.enum(['open', 'resolved']),
    resolution: Report.shape.resolution,
    resolved_at: Timestamp.nullable(),
    note: z.string().nullable().meta({ description: "The resolving moderator's note." }),
  })
  .meta({ id: 'ReportedSubject' });

export const ModerationSubjectsQuery = PageQuery.extend({
  status: z.enum(['open', 'resolved']).default('open'),
});

export const ModerationSubjectParams = z.strictObject({ subject_type: ReportSubjectType, subject_id: Uuid });

export const ResolveSubjectBody = z.strictObject({
  action: z.enum(MODERATION_ACTIONS).meta({
    description:
      '`dismiss`; `remove_content` (posts and comments: status `removed`); `suspend_profile` (the author, or the profile itself).',
  }),
  note: z.string().max(1000).optional(),
});

export const ResolveSubjectResult = z.object({ subject: ReportedSubject });
