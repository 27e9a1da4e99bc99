/** The moderation calls of the console (moderator sessions), through the typed client. */
import { unwrap, type Schemas } from '@social-network/sdk';
import { api } from './session.js';

export type ReportedSubject = Schemas['ReportedSubject'];
export type ModerationAction = 'dismiss' | 'remove_content' | 'suspend_profile';

export const moderation = {
  subjects: (status: 'open' | 'resolved', cursor?: string) =>
    unwrap(
      api.GET('/v1/moderation/subjects', { params: { query: { status, limit: 50, ...(cursor ? { cursor } : {}) } } }),
    ),
  resolve: (subject: ReportedSubject, action: ModerationAction, note?: string) =>
    unwrap(
      api.POST('/v1/moderation/subjects/{subject_type}/{subject_id}/resolve', {
        params: { path: { subject_type: subject.subject_type, subject_id: subject.subject_id } },
        body: { action, ...(note ? { note } : {}) },
      }),
    ),
};
