import type { ReportedSubjectRecord, ReportRecord } from '../../domain/reports.js';
import type { ReportableSubject } from '../../moderation/subjects.js';
import { Report, ReportedSubject } from '../contract/schemas/reports.js';
import { presentComment } from './comments.js';
import { declared } from './declared.js';
import { presentMessage } from './messages.js';
import { presentPostWithProfile } from './posts.js';
import { presentProfile } from './profiles.js';

export const presentReport = (report: ReportRecord) => declared(Report, report);

export const presentReportedSubject = (subject: ReportedSubjectRecord) =>
  declared(ReportedSubject, { ...subject, snapshot: subject.snapshot as Record<string, unknown> });

/** The subject as its own read answers it to anyone (no viewer's reaction): what moderators see of it. */
export function presentSnapshot(subject: ReportableSubject): Record<string, unknown> {
  switch (subject.subject_type) {
    case 'post':
      return presentPostWithProfile(subject.post, subject.author);
    case 'comment':
      return { comment: presentComment(subject.comment), profile: presentProfile(subject.author) };
    case 'profile':
      return presentProfile(subject.profile);
    case 'message':
      return presentMessage(subject.message);
  }
}
