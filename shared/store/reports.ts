/**
 * Reports and the reported subjects they are grouped under (REPORTS#<type>#<id>): the claim of
 * each open report, the subject's summary (its current round, snapshot and queue rank) and the
 * reports themselves. Every change of a subject's summary is a read-modify-write guarded by its
 * version, in one transaction with the reports it counts.
 */
import {
  reportedOnce,
  resolvedSubject,
  RESOLUTION_OF,
  type ModerationAction,
  type ReportedSubjectRecord,
  type ReportRecord,
  type ReportStatus,
  type ReportSubject,
} from '../domain/reports.js';
import { AppError } from '../errors.js';
import { entities, type StoredReportedSubject } from './entities.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPath } from './paths.js';
import { transactConditional, type TransactItem } from './transact.js';
import { retry, type RetryPolicy } from '../pipeline/retry.js';

/** A summary's guarded write lost to another writer's (which succeeded): read again and retry. */
class SummaryRaced extends Error {
  constructor() {
    super('The reported subject changed meanwhile');
    this.name = 'SummaryRaced';
  }
}

/** Each lost race is another writer's success, so many tries with short pauses. */
const SUMMARY_RETRY: RetryPolicy = {
  tries: 20,
  baseDelayMs: 5,
  maxDelayMs: 200,
  jitter: 1,
  retryable: (error) => error instanceof SummaryRaced,
};
/** Open reports closed per transaction (two items each; the last one also carries the subject's change and summary). */
const REPORTS_PER_TRANSACTION = 40;

/** Runs a summary's read-modify-write until it holds; a subject too busy for all the tries answers 409. */
const guarded = <T>(work: () => Promise<T>): Promise<T> =>
  retry(work, SUMMARY_RETRY).catch((error: unknown) => {
    if (!(error instanceof SummaryRaced)) throw error;
    throw new AppError('invalid_state', {
      message: 'The subject changed too often while this request ran.',
      hint: 'Retry the request.',
      cause: error,
    });
  });

export const getReportedSubject = (subject: ReportSubject): Promise<StoredReportedSubject | undefined> =>
  getItem(entities.reportedSubject, keys.reportedSubject(subject.subject_type, subject.subject_id), {
    consistent: true,
  });

export const getReport = (id: string): Promise<ReportRecord | undefined> =>
  getItem(entities.report, keys.report(id), { consistent: true });

/** The summary's put, guarded by the version it was read at (or its absence). */
function putSummary(next: ReportedSubjectRecord, before: StoredReportedSubject | undefined): TransactItem {
  const put = putTransactItem(
    entities.reportedSubject,
    { ...next, version: (before?.version ?? 0) + 1 },
    {
      ifAbsent: false,
    },
  );
  return {
    Put: {
      ...put.Put!,
      ...conditionRequest(before ? when.is('version', before.version) : when.absent()),
    },
  };
}

/** The reporter's open report of the subject, if any (its claim names it). */
async function openReportOf(report: ReportRecord): Promise<ReportRecord | undefined> {
  const claim = await getItem(
    entities.openReportClaim,
    keys.openReportClaim(report.subject_type, report.subject_id, report.reporter_profile_id),
    { consistent: true },
  );
  return claim && getReport(claim.report_id);
}

/**
 * Files the report, unless its reporter already has an open report of the subject: then that one
 * is answered and nothing is written. The claim, the report and the subject's summary are one
 * transaction, so under any concurrency one report is created per reporter and open round.
 */
export async function fileReport(
  report: ReportRecord,
  firstSeen: { snapshot: unknown; owner_profile_id: string },
): Promise<{ created: boolean; report: ReportRecord }> {
  const claim = {
    subject_type: report.subject_type,
    subject_id: report.subject_id,
    reporter_profile_id: report.reporter_profile_id,
    report_id: report.id,
  };
  return guarded(async () => {
    const before = await getReportedSubject(report);
    const outcome = await transactConditional([
      putTransactItem(entities.openReportClaim, claim),
      putTransactItem(entities.report, report),
      putSummary(reportedOnce(before, report, firstSeen), before),
    ]);
    if (outcome.ok) return { created: true, report };
    const existing = outcome.failed[0] ? await openReportOf(report) : undefined;
    if (existing) return { created: false, report: existing };
    throw new SummaryRaced();
  });
}

/** The profile's own reports, newest first. */
export const listReports = (reporterId: string, request: PageRequest): Promise<Page<ReportRecord>> =>
  pathPage(entities.report, 'byReporter', { reporter_profile_id: reporterId }, request, { order: 'newest_first' });

/** The reported subjects of one status, most reported first. */
export const listReportedSubjects = (
  status: ReportStatus,
  request: PageRequest,
): Promise<Page<StoredReportedSubject>> => pathPage(entities.reportedSubject, 'queue', { status }, request);

/** The closing of one open report: its claim goes, the report records the resolution. */
function closeReport(
  subject: ReportSubject,
  reporterId: string,
  reportId: string,
  resolution: ModerationAction,
  at: string,
) {
  return [
    {
      Delete: {
        ...conditionRequest(when.exists()),
        Key: keys.openReportClaim(subject.subject_type, subject.subject_id, reporterId),
      },
    },
    {
      Update: updateRequest({
        key: keys.report(reportId),
        set: { status: 'resolved', resolution: RESOLUTION_OF[resolution], resolved_at: at },
        when: [when.exists(), when.is('status', 'open')],
      }),
    },
  ] satisfies TransactItem[];
}

/**
 * Resolves every open report of the subject with `action`, in one transaction with the
 * subject's change (`effect`, built from the subject as read): a report filed meanwhile makes the
 * summary's version refuse it, and it is tried again with that report included. A subject with
 * more open reports than one transaction holds closes them in earlier transactions first, each
 * moving the summary's count; the last one carries the change. Returns the resolved summary, or
 * undefined when the subject has no open reports.
 */
export async function resolveReports(
  subject: ReportSubject,
  action: ModerationAction,
  note: string | null,
  now: Date,
  effect: (summary: StoredReportedSubject) => Promise<TransactItem[]>,
): Promise<StoredReportedSubject | undefined> {
  const at = now.toISOString();
  const step = await guarded(async () => {
    const before = await getReportedSubject(subject);
    if (before?.status !== 'open') return { resolved: undefined };
    const claims = await queryPath(entities.openReportClaim, 'ofSubject', subject, { consistent: true });
    const batch = claims.slice(0, REPORTS_PER_TRANSACTION);
    const last = batch.length === claims.length;
    const closing = batch.flatMap((c) => closeReport(subject, c.reporter_profile_id, c.report_id, action, at));
    const next: ReportedSubjectRecord = last
      ? resolvedSubject(before, action, note, now)
      : { ...before, open_reports: before.open_reports - batch.length };
    const outcome = await transactConditional([
      putSummary(next, before),
      ...closing,
      ...(last ? await effect(before) : []),
    ]);
    if (!outcome.ok) throw new SummaryRaced();
    return last ? { resolved: { ...next, version: before.version + 1 } } : { more: true as const };
  });
  // A batch closed and more open reports remain: the next transaction takes them.
  return 'more' in step ? resolveReports(subject, action, note, now, effect) : step.resolved;
}
