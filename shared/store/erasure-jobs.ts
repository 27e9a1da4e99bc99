/**
 * Erasure jobs (domain/erasure.ts) and what they leave: the job item, its status on the
 * `byStatus` path, the segments walked, the tombstones; and the marks that hide the subjects
 * while a job waits or runs (a profile's `deletion_scheduled_at` reads as a suspension does).
 */
import {
  chainMark,
  passChains,
  TOMBSTONE_DAYS,
  type WalkMessage,
  type ErasureJobRecord,
  type ErasureStatus,
  type UserDeletion,
} from '../domain/erasure.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { batchWrite } from './batch.js';
import { conditionHeld } from './conditional.js';
import { entities } from './entities.js';
import { epochSeconds } from './epoch.js';
import { conditionRequest, when } from './expressions.js';
import { transactConditional } from './transact.js';
import { getItem, indexChanges, putItem } from './items.js';
import { keys } from './keys.js';
import { queryPath, queryPathItems } from './paths.js';
import type { ErasureReach } from './erasure-reach.js';
import { TABLE } from './table.js';
import { sendUpdate } from './update.js';

/** Profiles marked or unmarked at once. */
const PROFILES_AT_ONCE = 8;

export const getErasureJob = (id: string): Promise<ErasureJobRecord | undefined> =>
  getItem(entities.erasureJob, keys.erasureJob(id), { consistent: true });

/** The jobs of one status (the local runtime's resume after a restart; few at a time). */
export const erasureJobsOfStatus = (status: ErasureStatus): Promise<ErasureJobRecord[]> =>
  queryPath(entities.erasureJob, 'byStatus', { status });

/**
 * Puts the job and hides its subjects: each profile marked (its updated_at moves, so the cards of
 * its posts follow through the profile stream, as a suspension's do) and, for an account, the
 * user's `deletion`. A repeat of the marks is harmless.
 */
export async function createErasureJob(job: ErasureJobRecord, at: string): Promise<void> {
  await putItem(entities.erasureJob, job);
  await markProfiles(job, { set: { deletion_scheduled_at: at, updated_at: at } });
  if (job.subjects.user) await setUserDeletion(job.subjects.user.id, deletionOf(job));
}

const deletionOf = (job: ErasureJobRecord): UserDeletion => ({
  job_id: job.id,
  status: job.status,
  scheduled_for: job.scheduled_for,
});

async function markProfiles(
  job: ErasureJobRecord,
  change: { set: Record<string, unknown>; remove?: string[] },
): Promise<void> {
  await mapLimit(job.subjects.profiles, PROFILES_AT_ONCE, (profile) =>
    conditionHeld(sendUpdate({ key: keys.profile(profile.id), ...change, when: when.exists() })),
  );
}

const setUserDeletion = (userId: string, deletion: UserDeletion) =>
  conditionHeld(sendUpdate({ key: keys.user(userId), set: { deletion }, when: when.exists() }));

/**
 * Cancels a scheduled job: the job goes (a schedule that still fires finds nothing to do), the
 * marks are taken off. False when the job was no longer scheduled (it started meanwhile).
 */
export async function cancelErasureJob(job: ErasureJobRecord, at: string): Promise<boolean> {
  const outcome = await transactConditional([
    {
      Delete: {
        ...conditionRequest([when.exists(), when.is('status', 'scheduled')]),
        Key: keys.erasureJob(job.id),
      },
    },
  ]);
  if (!outcome.ok) return false;
  await markProfiles(job, { set: { updated_at: at }, remove: ['deletion_scheduled_at'] });
  if (job.subjects.user)
    await conditionHeld(
      sendUpdate({ key: keys.user(job.subjects.user.id), remove: ['deletion'], when: when.exists() }),
    );
  return true;
}

/**
 * Moves the job to `pass` (in progress): false when it is not there or was cancelled. A replayed
 * start finds it on its pass already and answers true again.
 */
export async function startPass(job: ErasureJobRecord, pass: number): Promise<boolean> {
  const moved = { ...job, status: 'in_progress' as const, pass };
  const { set, remove } = indexChanges(entities.erasureJob, moved);
  const held = await conditionHeld(
    sendUpdate({
      key: keys.erasureJob(job.id),
      set: { ...set, status: moved.status, pass },
      remove,
      when: [when.exists(), when.oneOf('status', ['scheduled', 'in_progress'])],
    }),
  );
  if (held && job.subjects.user && job.status === 'scheduled')
    await setUserDeletion(job.subjects.user.id, deletionOf(moved));
  return held;
}

/** Records a chain of a pass walked to its end; answers whether every chain of that pass is. */
export async function finishChain(job: ErasureJobRecord, message: WalkMessage): Promise<boolean> {
  const { Attributes } = await sendUpdate({
    key: keys.erasureJob(job.id),
    add: { done: new Set([chainMark(message)]) },
    when: when.exists(),
    returns: 'ALL_NEW',
  });
  const done = (Attributes?.done as Set<string> | undefined) ?? new Set<string>();
  return passChains(job, message.pass).every((chain) => done.has(chainMark(chain)));
}

/** The end: the job item and what its first pass reached go (they name the subjects), nothing but the tombstones stays. */
export async function endErasureJob(jobId: string): Promise<void> {
  await conditionHeld(sendUpdate({ key: keys.erasureJob(jobId), set: { status: 'done' }, when: when.exists() }));
  const reached = await queryPathItems(entities.erasureReach, 'ofJob', { job_id: jobId });
  await batchWrite(
    reached.map((item) => ({ DeleteRequest: { Key: { pk: item.pk as string, sk: item.sk as string } } })),
  );
  await deleteJobItem(jobId);
}

const deleteJobItem = (jobId: string) => batchWrite([{ DeleteRequest: { Key: keys.erasureJob(jobId) } }]);

/**
 * What a page of the first pass reached beyond its own items (the profiles it met, the keys it
 * derived), kept under the job for the second pass to visit again. Its sort key is the page's, so
 * a replayed page writes the same item.
 */
export async function keepReach(jobId: string, page: string, reach: ErasureReach): Promise<void> {
  if (reach.profile_ids.length === 0 && reach.keys.length === 0) return;
  await putItem(entities.erasureReach, { job_id: jobId, page, ...reach }, { ifAbsent: false });
}

/**
 * The tombstone of each profile, and its username claim kept (not the profile's own item) until
 * the tombstone expires: the name stays taken for TOMBSTONE_DAYS, then both go by TTL.
 */
export async function writeTombstones(job: ErasureJobRecord, at: string): Promise<void> {
  const expires = epochSeconds(at) + TOMBSTONE_DAYS * 86_400;
  await mapLimit(job.subjects.profiles, PROFILES_AT_ONCE, async (profile) => {
    await putItem(
      entities.tombstone,
      { id: profile.id, username: profile.username, deleted_at: at },
      { ifAbsent: false },
    );
    await conditionHeld(
      sendUpdate({
        key: keys.username(profile.username.toLowerCase()),
        set: { [TABLE.ttlAttribute]: expires },
        when: when.exists(),
      }),
    );
  });
}
