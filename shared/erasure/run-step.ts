/**
 * The erasure's steps (DESIGN.md "Erasure and export"): a job item plus a queue of idempotent
 * steps. `start` moves the job in progress, writes the tombstones and ends the subjects' ways in
 * at once (sessions, the email's credential); then each `walk` step erases one page of one access
 * path of one subject (store/erasure-paths.ts), with what the page reaches in other profiles'
 * partitions, and enqueues the next page. A crash replays a step, which finds less to erase.
 * After the last chain of the first pass, a second pass (after a pause) walks the paths again and
 * revisits what the first reached, for what the stream folds wrote back meanwhile; after the
 * second, the job item goes and the tombstones stay.
 */
import {
  ERASURE_PASSES,
  ERASURE_SECOND_PASS_DELAY_SECONDS,
  passMessages,
  REVISIT_PATH,
  traceNeedles,
  type ErasureJobRecord,
  type ErasureMessage,
  type WalkMessage,
} from '../domain/erasure.js';
import { mediaObjectKeys } from '../domain/media.js';
import { logger } from '../logger.js';
import { mapLimit } from '../pipeline/concurrency.js';
import type { ErasureQueue } from '../ports/erasure-queue.js';
import type { ExportStorage } from '../ports/export-storage.js';
import type { MediaStorage } from '../ports/media-storage.js';
import type { SearchIndex } from '../ports/search-index.js';
import { endSubjectCredentials } from '../store/erasure-credentials.js';
import { announce, eraseItems, erasureTargetOf, type ErasedElsewhere } from '../store/erasure-items.js';
import { getProfiles } from '../store/profiles.js';
import { idFromParts } from '../domain/ids.js';
import { socialEvents } from '../http/present/social-events.js';
import {
  endErasureJob,
  finishChain,
  getErasureJob,
  keepReach,
  startPass,
  writeTombstones,
} from '../store/erasure-jobs.js';
import { erasurePathPage } from '../store/erasure-paths.js';
import { reachedTraces } from '../store/erasure-reach.js';
import { itemKeyOf } from '../store/erasure-walk.js';
import { keyId } from '../store/batch.js';

export interface ErasurePorts {
  queue: ErasureQueue;
  storage: MediaStorage;
  exports: ExportStorage;
  search: SearchIndex;
}

/** Media whose files are deleted at once. */
const MEDIA_AT_ONCE = 4;

/** Runs one step; a step of a job that is gone, cancelled or past that pass does nothing. */
export async function runErasureStep(message: ErasureMessage, ports: ErasurePorts): Promise<void> {
  const job = await getErasureJob(message.job_id);
  if (!job || (job.status !== 'scheduled' && job.status !== 'in_progress')) return;
  if (message.kind === 'start') return start(job, ports);
  if (job.status !== 'in_progress' || job.pass !== message.pass) return;
  const at = job.scheduled_for;
  const target = erasureTargetOf(job.subjects, traceNeedles(job.subjects), (post) =>
    socialEvents.postDeleted(post, at),
  );
  const page = await erasurePathPage(message.path, message.subject, message.cursor, target);
  // Kept before erasing: a crash after the erasing still leaves the second pass its way back.
  if (message.pass === 1 && message.path !== REVISIT_PATH) await keepReach(job.id, pageId(message), page.reach);
  const reached = await reachedTraces(page.reach, target);
  const items = [...new Map([...page.items, ...reached].map((item) => [keyId(itemKeyOf(item)), item])).values()];
  const elsewhere = await eraseItems(items, target);
  await eraseElsewhere(ports, elsewhere);
  await announceToConnected(job, elsewhere.connected);
  if (page.cursor) {
    await ports.queue.send([{ ...message, cursor: page.cursor }]);
    return;
  }
  if (!(await finishChain(job, message))) return;
  if (message.pass < ERASURE_PASSES) {
    const next = message.pass + 1;
    if (await startPass(job, next)) await ports.queue.send(passMessages(job, next), ERASURE_SECOND_PASS_DELAY_SECONDS);
    return;
  }
  // Once more at the end: a follower count folded meanwhile may have put the profile back (an upsert).
  await forgetProfilesInSearch(job, ports);
  await endErasureJob(job.id);
  logger.info('erasure finished', { job_id: job.id, profiles: job.subjects.profiles.length });
}

/**
 * The job's start: in progress on pass 1, tombstones, credentials ended, search emptied of the
 * profiles, the segments' first pages enqueued. A replayed start (or the local runtime's resume
 * after a restart) enqueues the segments of the pass the job is on that are not walked yet.
 */
async function start(job: ErasureJobRecord, ports: ErasurePorts): Promise<void> {
  if (job.pass > 0) {
    await ports.queue.send(passMessages(job, job.pass, job.done));
    return;
  }
  if (!(await startPass(job, 1))) return;
  await writeTombstones(job, job.scheduled_for);
  await endSubjectCredentials(job.subjects);
  await forgetProfilesInSearch(job, ports);
  await ports.queue.send(passMessages(job, 1));
}

/** A page's name among the job's pages: its path, subject and where it starts (a replay names the same). */
const pageId = (message: WalkMessage) =>
  idFromParts(message.path, message.subject, JSON.stringify(message.cursor ?? null));

const forgetProfilesInSearch = (job: ErasureJobRecord, ports: ErasurePorts) =>
  ports.search.write(job.subjects.profiles.map((p) => ({ kind: 'delete_profile' as const, id: p.id })));

/**
 * The files of the erased media (every rendition, and an upload never processed), the erased
 * exports' archives, and the erased posts' search documents.
 */
async function eraseElsewhere(ports: ErasurePorts, erased: ErasedElsewhere): Promise<void> {
  await mapLimit(erased.media_ids, MEDIA_AT_ONCE, async (id) => {
    await ports.storage.deleteFiles(mediaObjectKeys.mediaPrefix(id));
    await ports.storage.deleteUpload(mediaObjectKeys.upload(id));
  });
  await mapLimit(erased.export_keys, MEDIA_AT_ONCE, (key) => ports.exports.delete(key));
  if (erased.post_ids.length > 0)
    await ports.search.write(erased.post_ids.map((id) => ({ kind: 'delete_post' as const, id })));
}

/**
 * profile.deleted to each profile the page met connected to a subject (read for its workspace),
 * one event per pair (its id derives from the job and the pair, so meeting the pair again puts
 * nothing). A profile of an erased workspace is no receiver: it is being erased too.
 */
async function announceToConnected(
  job: ErasureJobRecord,
  pairs: readonly { other: string; erased: string }[],
): Promise<void> {
  if (pairs.length === 0) return;
  const profiles = await getProfiles([...new Set(pairs.map((p) => p.other))]);
  const erased = new Map(job.subjects.profiles.map((p) => [p.id, p]));
  const events = pairs.flatMap(({ other, erased: erasedId }) => {
    const connected = profiles.get(other);
    const subject = erased.get(erasedId);
    if (!connected || !subject || job.subjects.workspace_ids.includes(connected.workspace_id)) return [];
    return socialEvents.profileDeleted(
      idFromParts('profile.deleted', job.id, subject.id, connected.id),
      { id: subject.id, username: subject.username, deleted_at: job.scheduled_for },
      connected,
    );
  });
  await announce([...new Map(events.map((e) => [e.id, e])).values()]);
}
