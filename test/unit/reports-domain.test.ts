import { describe, expect, it } from 'vitest';
import {
  actionApplies,
  isSuspended,
  newReport,
  queueRank,
  reportedOnce,
  resolvedSubject,
  roundReports,
  type ReportedSubjectRecord,
} from '../../shared/domain/reports.js';

const subject = { subject_type: 'post', subject_id: '00000000-0000-4000-8000-000000000001' } as const;
const at = (second: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, second));
const firstSeen = { snapshot: { post: { body: 'as first read' } }, owner_profile_id: 'author' };
const reportBy = (reporter: string, reason: 'spam' | 'hate', second: number) =>
  newReport(at(second), reporter, { ...subject, reason });

describe('reported subjects', () => {
  it('count each report into the open round, keeping the first report time and snapshot', () => {
    const one = reportedOnce(undefined, reportBy('a', 'spam', 1), firstSeen);
    const two = reportedOnce(one, reportBy('b', 'spam', 2), { snapshot: 'later', owner_profile_id: 'x' });
    const three = reportedOnce(two, reportBy('c', 'hate', 3), firstSeen);
    expect(three).toMatchObject({
      status: 'open',
      open_reports: 3,
      reasons: { spam: 2, hate: 1 },
      first_reported_at: at(1).toISOString(),
      snapshot: firstSeen.snapshot,
      owner_profile_id: 'author',
    });
    expect(roundReports(three)).toBe(3);
  });

  it('resolve with the action’s resolution and open a new round on the next report', () => {
    const open = reportedOnce(undefined, reportBy('a', 'spam', 1), firstSeen);
    const resolved = resolvedSubject(open, 'remove_content', 'gone', at(5));
    expect(resolved).toMatchObject({
      status: 'resolved',
      open_reports: 0,
      resolution: 'content_removed',
      resolved_at: at(5).toISOString(),
      note: 'gone',
      reasons: { spam: 1 },
    });
    const reopened = reportedOnce(resolved, reportBy('a', 'hate', 9), firstSeen);
    expect(reopened).toMatchObject({
      status: 'open',
      open_reports: 1,
      reasons: { hate: 1 },
      resolution: null,
      note: null,
    });
    expect(reopened.first_reported_at).toBe(at(1).toISOString());
  });

  it('rank most reported first, then the longest waiting', () => {
    const base = reportedOnce(undefined, reportBy('a', 'spam', 1), firstSeen);
    const withCount = (n: number, second: number): ReportedSubjectRecord => ({
      ...base,
      subject_id: `id-${n}-${second}`,
      reasons: { spam: n },
      first_reported_at: at(second).toISOString(),
    });
    const ranked = [withCount(1, 1), withCount(12, 5), withCount(3, 2), withCount(12, 3)]
      .map((s) => ({ s, rank: queueRank(s) }))
      .sort((x, y) => (x.rank < y.rank ? -1 : 1))
      .map(({ s }) => s.subject_id);
    expect(ranked).toEqual(['id-12-3', 'id-12-5', 'id-3-2', 'id-1-1']);
  });
});

describe('moderation rules', () => {
  it('removes content of posts and comments only; dismisses and suspends anything', () => {
    expect(actionApplies('post', 'remove_content')).toBe(true);
    expect(actionApplies('comment', 'remove_content')).toBe(true);
    expect(actionApplies('profile', 'remove_content')).toBe(false);
    expect(actionApplies('message', 'remove_content')).toBe(false);
    expect(actionApplies('message', 'suspend_profile')).toBe(true);
    expect(actionApplies('profile', 'dismiss')).toBe(true);
  });

  it('tells suspended profiles', () => {
    expect(isSuspended({ suspended_at: at(1).toISOString() })).toBe(true);
    expect(isSuspended({ suspended_at: null })).toBe(false);
    expect(isSuspended({})).toBe(false);
    expect(isSuspended(undefined)).toBe(false);
  });
});
