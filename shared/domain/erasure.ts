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
 * The access paths an erasure walks, by the kind of subject they start from (DESIGN.md "Erasure and
 * export"): each (path, subject) a chain of messages, one page each, walked in parallel with the
 * others. What a path reaches beyond its own items (the profiles it met, whose inboxes, logs and
 * feeds name the subject, and the keys of items it derives) is walked with its page.
 */
export const PROFILE_PATHS = [
  'followers',
  'following',
  'conversations',
  'likes',
  'posts',
  'drafts',
  'comments',
  'safety',
  'muted_by',
  'media',
  'profile',
  'inbox',
  'event_log',
  'feed',
  'events',
  'grants',
  'managed_grants',
  'agents',
  'operator_links',
] as const;
export const USER_PATHS = ['sessions', 'passkeys', 'memberships', 'user', 'exports', 'mails'] as const;
export const WORKSPACE_PATHS = ['workspace', 'api_keys', 'endpoints', 'deliveries', 'oauth_grants', 'audit'] as const;
/** The second pass's walk over what the first reached (the job's own partition). */
export const REVISIT_PATH = 'revisit';
export type ErasurePath =
  (typeof PROFILE_PATHS)[number] | (typeof USER_PATHS)[number] | (typeof WORKSPACE_PATHS)[number] | typeof REVISIT_PATH;
/**
 * The walk runs twice: the second pass, started this long after the first ends, walks every path
 * again and revisits what the first reached through them, for what the stream folds wrote back
 * while the first ran (a follower count re-created by an unfollow's fold, a notification group's
 * record of a like undone, a feed entry fanned out late).
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

/** The job item: the subjects, where the walk is, which chains of which pass are done. */
export interface ErasureJobRecord {
  id: string;
  status: ErasureStatus;
  /** When the erasure runs (the grace period's end, or its creation for `now`). */
  scheduled_for: string;
  subjects: ErasureSubjects;
  /** The pass the walk is on (1 or 2); 0 until it starts. */
  pass: number;
  /** The chains of each pass walked to their end (`chainMark`); absent until the first. */
  done?: Set<string>;
  created_at: string;
}

/** A message of the erasure queue: start the job, or walk one page of one path of one subject in one pass. */
export const ErasureMessage = z.union([
  z.object({ kind: z.literal('start'), job_id: z.string() }),
  z.object({
    kind: z.literal('walk'),
    job_id: z.string(),
    pass: z.number(),
    path: z.enum([...PROFILE_PATHS, ...USER_PATHS, ...WORKSPACE_PATHS, REVISIT_PATH]),
    /** The profile, user, workspace (or, revisiting, job) the path starts from. */
    subject: z.string(),
    /** The walk's position on the path (the Query's LastEvaluatedKey); absent at its start. */
    cursor: z.optional(z.record(z.string(), z.unknown())),
  }),
]);
export type ErasureMessage = z.infer<typeof ErasureMessage>;
export type WalkMessage = Extract<ErasureMessage, { kind: 'walk' }>;

/** Every chain of a pass: each path of each subject (and, on the second, the revisit of the first's reach). */
export function passChains(job: Pick<ErasureJobRecord, 'id' | 'subjects'>, pass: number): WalkMessage[] {
  const walk = (path: ErasurePath, subject: string): WalkMessage => ({
    kind: 'walk',
    job_id: job.id,
    pass,
    path,
    subject,
  });
  const { profiles, user, workspace_ids } = job.subjects;
  return [
    ...profiles.flatMap((p) => PROFILE_PATHS.map((path) => walk(path, p.id))),
    ...(user ? USER_PATHS.map((path) => walk(path, user.id)) : []),
    ...workspace_ids.flatMap((w) => WORKSPACE_PATHS.map((path) => walk(path, w))),
    ...(pass > 1 ? [walk(REVISIT_PATH, job.id)] : []),
  ];
}

/** The first page of every chain of a pass not walked to its end yet. */
export const passMessages = (
  job: Pick<ErasureJobRecord, 'id' | 'subjects'>,
  pass: number,
  done: ReadonlySet<string> = new Set(),
): WalkMessage[] => passChains(job, pass).filter((m) => !done.has(chainMark(m)));

/** How the job records a finished chain of a pass (a set: a replayed last page marks it once). */
export const chainMark = (m: Pick<WalkMessage, 'pass' | 'path' | 'subject'>) => `${m.pass}:${m.path}:${m.subject}`;

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
