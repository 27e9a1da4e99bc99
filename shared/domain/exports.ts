/**
 * A data export (API.md "Your data is yours"): a job that writes one ZIP archive of everything the
 * API answers about the user's owned workspaces, and the import of an archive's follows, blocks
 * and mutes. No AWS here: the archive is written through the ExportStorage port.
 */
import { randomBytes } from 'node:crypto';
import { newId } from './ids.js';

export const EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** How long a ready archive can be downloaded (and the bucket keeps it): 7 days. */
export const EXPORT_DOWNLOAD_SECONDS = 7 * 86_400;
/**
 * How long the "one export at a time" claim holds without its job finishing: past it a new export
 * may start (a job that died without settling must not block the user for ever). Longer than a
 * job's every try together (the queue's visibility timeout times its receive count).
 */
export const EXPORT_CLAIM_SECONDS = 2 * 3600;

/** Tries of one export job (the queue's receive count) before it is settled as failed. */
export const EXPORT_JOB_TRIES = 3;

export interface ExportRecord {
  id: string;
  user_id: string;
  status: ExportStatus;
  created_at: string;
  completed_at: string | null;
  size_bytes: number | null;
  /** Until when the archive can be downloaded (completed_at + 7 days); null until ready. */
  expires_at: string | null;
  /** Where the archive is stored: unguessable (a random part), so a local URL to it cannot be made up. */
  object_key: string;
  /** Why the job gave up (failed only). */
  failure_reason: string | null;
  /** The console's origin at the request, which the "ready" mail links to. */
  console_base: string;
}

export function newExport(now: Date, userId: string, consoleBase: string): ExportRecord {
  const id = newId();
  return {
    id,
    user_id: userId,
    status: 'pending',
    created_at: now.toISOString(),
    completed_at: null,
    size_bytes: null,
    expires_at: null,
    object_key: `${id}/${randomBytes(16).toString('hex')}.zip`,
    failure_reason: null,
    console_base: consoleBase,
  };
}

/** The export's download is open: ready and not past its 7 days. */
export const isDownloadable = (e: Pick<ExportRecord, 'status' | 'expires_at'>, now: Date): boolean =>
  e.status === 'ready' && e.expires_at !== null && new Date(e.expires_at).getTime() > now.getTime();

/** When a ready archive's download closes. */
export const downloadExpiry = (completedAt: Date): Date =>
  new Date(completedAt.getTime() + EXPORT_DOWNLOAD_SECONDS * 1000);

/** The README.txt at the archive's root: what each file holds. */
export const ARCHIVE_README = `Your data export
================

Every object is in the API's own shapes (see the API reference at /docs).

account.json                          your user and the workspaces you are a member of, with your role
profiles/<username>/profile.json      the profile, as GET /v1/profiles/{id} answers it
profiles/<username>/posts.json        its posts, replies, quotes and drafts, each with "history": its earlier versions
profiles/<username>/comments.json     its comments, each with "history"
profiles/<username>/likes.json        { posts: [id], comments: [id] } it likes
profiles/<username>/following.json    [{ profile_id, username, since }] it follows
profiles/<username>/followers.json    [{ profile_id, username, since }] following it
profiles/<username>/blocks.json       [{ profile_id, username, since }] it blocks
profiles/<username>/mutes.json        [{ profile_id, username, since }] it mutes
profiles/<username>/messages.json     the messages of its conversations, both directions
profiles/<username>/notifications.json  its notifications
profiles/<username>/media.json        the media its profile and posts show; the files under media/, as served
workspaces/<id>/webhook-endpoints.json  the workspace's webhook endpoints (no signing secret)
workspaces/<id>/api-keys.json         the workspace's API keys (no key)

following.json, blocks.json and mutes.json can be imported into a profile again:
POST /v1/profiles/{profile_id}/imports with { following, blocks, mutes }.

No secret is in this archive: no password, key, token or signing secret.
`;

/** The most entries one import takes, all lists together. */
export const IMPORT_MAX_ENTRIES = 10_000;
/** Follows, blocks and mutes written at once by an import. */
export const IMPORT_CONCURRENCY = 8;
