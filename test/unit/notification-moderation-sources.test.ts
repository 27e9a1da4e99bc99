import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { notificationOf } from '../../shared/domain/notifications.js';
import { notificationWorkOf } from '../../shared/notifications/sources.js';

const REPORT_ID = '0b8c7f6e-1111-4a2b-9c3d-000000000001';
const REPORTER = '0b8c7f6e-2222-4a2b-9c3d-000000000002';
const POST_ID = '0b8c7f6e-3333-4a2b-9c3d-000000000003';
const RESOLVED_AT = '2026-11-26T01:00:00.000Z';

const record = (eventName: 'INSERT' | 'MODIFY', image: Record<string, unknown>) =>
  ({
    eventName,
    dynamodb: {
      SequenceNumber: '100',
      Keys: marshall({ pk: 'X', sk: 'Y' }),
      NewImage: marshall(image, { removeUndefinedValues: true }),
    },
  }) as DynamoDBRecord;

const report = (fields: Record<string, unknown> = {}) => ({
  entity: 'report',
  id: REPORT_ID,
  subject_type: 'post',
  subject_id: POST_ID,
  reporter_profile_id: REPORTER,
  reason: 'spam',
  details: null,
  status: 'resolved',
  resolution: 'dismissed',
  created_at: '2026-11-26T00:00:00.000Z',
  resolved_at: RESOLVED_AT,
  ...fields,
});

const summary = (fields: Record<string, unknown> = {}) => ({
  entity: 'reported_subject',
  subject_type: 'post',
  subject_id: POST_ID,
  status: 'resolved',
  open_reports: 0,
  reasons: { spam: 2 },
  first_reported_at: '2026-11-26T00:00:00.000Z',
  snapshot: { post: { id: POST_ID } },
  owner_profile_id: 'someone',
  resolution: 'content_removed',
  resolved_at: RESOLVED_AT,
  note: null,
  version: 3,
  ...fields,
});

describe('moderation notices from the table stream', () => {
  it('a report turned resolved notifies its reporter, about the report, from no profile', () => {
    const work = notificationWorkOf(record('MODIFY', report()));
    expect(work).toEqual({
      ok: true,
      record: {
        kind: 'single',
        draft: {
          source: `report:${REPORT_ID}:resolved`,
          recipient_id: REPORTER,
          actor_id: null,
          reason: 'report_resolved',
          subject_type: 'report',
          subject_id: REPORT_ID,
          post_id: null,
          comment_id: null,
          at: RESOLVED_AT,
        },
      },
    });
    // Whatever the resolution was: a report of a suspended profile notifies its reporter too.
    const suspended = notificationWorkOf(record('MODIFY', report({ resolution: 'profile_suspended' })));
    expect(suspended).toMatchObject({ ok: true, record: { draft: { reason: 'report_resolved' } } });
  });

  it('a replay of the record names the same notification', () => {
    const once = notificationWorkOf(record('MODIFY', report()));
    const again = notificationWorkOf(record('MODIFY', report()));
    if (!once?.ok || !again?.ok || once.record.kind !== 'single' || again.record.kind !== 'single')
      throw new Error('expected single notifications');
    const notification = notificationOf(once.record.draft);
    expect(notificationOf(again.record.draft).id).toBe(notification.id);
    expect(notification).toMatchObject({ actor_ids: [], actors_count: 0, seen: false, created_at: RESOLVED_AT });
  });

  it('a subject resolved by removing its content asks for its author’s notice (post or comment)', () => {
    expect(notificationWorkOf(record('MODIFY', summary()))).toEqual({
      ok: true,
      record: { kind: 'removal', removal: { subject_type: 'post', subject_id: POST_ID, at: RESOLVED_AT } },
    });
    expect(notificationWorkOf(record('MODIFY', summary({ subject_type: 'comment' })))).toMatchObject({
      ok: true,
      record: { kind: 'removal', removal: { subject_type: 'comment' } },
    });
  });

  it('tells of nothing else: open reports, new ones, dismissals and suspensions of subjects', () => {
    expect(notificationWorkOf(record('INSERT', report({ status: 'open', resolution: null, resolved_at: null })))).toBe(
      undefined,
    );
    expect(notificationWorkOf(record('MODIFY', summary({ status: 'open', resolution: null })))).toBe(undefined);
    expect(notificationWorkOf(record('MODIFY', summary({ resolution: 'dismissed' })))).toBe(undefined);
    expect(notificationWorkOf(record('MODIFY', summary({ resolution: 'profile_suspended' })))).toBe(undefined);
    // a profile's summary cannot carry a removal; were one written, it is malformed, not a notice
    expect(notificationWorkOf(record('MODIFY', summary({ subject_type: 'profile' })))).toMatchObject({ ok: false });
  });

  it('reports a malformed resolved report instead of throwing', () => {
    const work = notificationWorkOf(record('MODIFY', report({ reporter_profile_id: undefined })));
    expect(work).toMatchObject({ ok: false });
  });
});
