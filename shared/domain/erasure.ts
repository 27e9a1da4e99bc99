/**
 * Erasure (API.md "Your data is yours"): what one erasure job erases, the messages of its queue,
 * and, for every item of the table, what the erasure does to it. Pure: the store applies it.
 */
import * as z from 'zod/mini';
import { newId } from './ids.js';

/** The account deletion's grace period. */
export const ERASURE_GRACE_DAYS = 30;
/** How long a tombstone keeps the username from being taken. */
export const TOMBSTONE_DAYS = 90;
/**
 * The parallel segments the table walk is split into: each one a chain of messages, one page
 * each, so a large table is walked by this many consumers at once.
 */
export const ERASURE_SEGMENTS = 4;
/**
 * The walk runs twice: the second pass, started this long after the first ends, finds what the
 * stream folds wrote back while the first ran (a follower count re-created by an unfollow's fold,
 * a notification group's record of a like undone).
 */
export const ERASURE_SECOND_PASS_DELAY_SECONDS = 3;
export const ERASURE_PASSES = 2;

/** Who is erased: the profiles, and for an account deletion its user and the workspaces it owns. */
export const ErasureSubjects = z.object({
  profiles: z.array(z.object({ id: z.string(), username: z.string() })),
  user: z.nullable(z.object({ id: z.string(), email: z.string() })),
  /** Workspaces erased whole (the user owned them): their keys, endpoints, deliveries, grants, members. */
  workspace_ids: z.array(z.string()),
});
export type ErasureSubjects = z.infer<typeof ErasureSubjects>;

export type ErasureStatus = 'scheduled' | 'in_progress';

/** What a user item says of its account's deletion while one is scheduled or running. */
export interface UserDeletion {
  job_id: string;
  status: ErasureStatus;
  scheduled_for: string;
}

/** The job item: the subjects, where the walk is, which segments of which pass are done. */
export interface ErasureJobRecord {
  id: string;
  status: ErasureStatus;
  /** When the erasure runs (the grace period's end, or its creation for `now`). */
  scheduled_for: string;
  subjects: ErasureSubjects;
  /** The pass the walk is on (1 or 2); 0 until it starts. */
  pass: number;
  /** The segments of each pass walked to their end (`segmentMark`); absent until the first. */
  done?: Set<string>;
  created_at: string;
}

/** A message of the erasure queue: start the job, or walk one page of one segment of one pass. */
export const ErasureMessage = z.union([
  z.object({ kind: z.literal('start'), job_id: z.string() }),
  z.object({
    kind: z.literal('walk'),
    job_id: z.string(),
    pass: z.number(),
    segment: z.number(),
    /** The walk's position in the segment (the Scan's LastEvaluatedKey); absent at its start. */
    cursor: z.optional(z.record(z.string(), z.unknown())),
  }),
]);
export type ErasureMessage = z.infer<typeof ErasureMessage>;

/** The first page of every segment of a pass. */
export const passMessages = (jobId: string, pass: number, done: ReadonlySet<string> = new Set()): ErasureMessage[] =>
  Array.from({ length: ERASURE_SEGMENTS }, (_, segment) => segment)
    .filter((segment) => !done.has(segmentMark(pass, segment)))
    .map((segment) => ({ kind: 'walk', job_id: jobId, pass, segment }));

/** How the job records a finished segment of a pass (a set: a replayed last page marks it once). */
export const segmentMark = (pass: number, segment: number) => `${pass}:${segment}`;

/** The strings whose presence in an item makes it a trace of the subjects. */
export function traceNeedles(subjects: ErasureSubjects): string[] {
  return [
    ...subjects.profiles.map((p) => p.id),
    ...(subjects.user ? [subjects.user.id, subjects.user.email] : []),
    ...subjects.workspace_ids,
  ];
}

/** An item as text, string sets included (JSON leaves a Set empty). */
export const itemText = (item: Record<string, unknown>): string =>
  JSON.stringify(item, (_key, value: unknown) => (value instanceof Set ? [...(value as Set<unknown>)] : value));

/** Whether the item (any attribute, keys included) names one of the needles. */
export const isTrace = (item: Record<string, unknown>, needles: readonly string[]): boolean => {
  const text = itemText(item);
  return needles.some((needle) => text.includes(needle));
};

/** A new job: `now` runs at once (in progress), `after_grace` when the grace period ends. */
export function newErasureJob(now: Date, subjects: ErasureSubjects, when: 'now' | 'after_grace'): ErasureJobRecord {
  const at = now.toISOString();
  return {
    id: newId(),
    status: when === 'now' ? 'in_progress' : 'scheduled',
    scheduled_for: when === 'now' ? at : new Date(now.getTime() + ERASURE_GRACE_DAYS * 86_400_000).toISOString(),
    subjects,
    pass: 0,
    created_at: at,
  };
}

/** The start message of a job. */
export const startMessage = (job: Pick<ErasureJobRecord, 'id'>): ErasureMessage => ({ kind: 'start', job_id: job.id });
