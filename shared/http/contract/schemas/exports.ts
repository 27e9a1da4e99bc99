import * as z from 'zod';
import { EXPORT_STATUSES, IMPORT_MAX_ENTRIES } from '../../../domain/exports.js';
import { Timestamp, Uuid } from './common.js';

export const Export = z
  .object({
    id: Uuid,
    status: z
      .enum(EXPORT_STATUSES)
      .meta({ description: '`pending` while the archive is written; then `ready` or `failed`.' }),
    created_at: Timestamp,
    completed_at: Timestamp.nullable(),
    size_bytes: z.number().int().nullable().meta({ description: "The archive's size; null until ready." }),
    download_url: z.string().nullable().meta({
      description:
        'Downloads the ZIP archive without a credential of this API, until `expires_at`; null unless ready (and after `expires_at`). A fresh URL on every read: keep it to yourself.',
    }),
    expires_at: Timestamp.nullable().meta({ description: 'When the download closes: 7 days after it was ready.' }),
    failure_reason: z.string().nullable().meta({ description: 'Why the export failed; null otherwise.' }),
  })
  .meta({ id: 'Export' });

export const ExportAnswer = z.object({ export: Export });
export const ExportParams = z.strictObject({ export_id: Uuid });

/** One entry of an archive's following.json, blocks.json or mutes.json. */
const ImportEntry = z
  .object({
    profile_id: z.string().max(64).optional(),
    username: z.string().max(64).optional(),
    since: z.string().max(64).optional(),
  })
  .refine((e) => e.profile_id !== undefined || e.username !== undefined, {
    message: 'Each entry needs a profile_id or a username.',
  });

const ImportList = z.array(ImportEntry).max(IMPORT_MAX_ENTRIES);

export const ImportBody = z
  .strictObject({
    following: ImportList.optional().meta({ description: "An archive's following.json." }),
    blocks: ImportList.optional().meta({ description: "An archive's blocks.json." }),
    mutes: ImportList.optional().meta({ description: "An archive's mutes.json." }),
  })
  .refine((b) => (b.following?.length ?? 0) + (b.blocks?.length ?? 0) + (b.mutes?.length ?? 0) <= IMPORT_MAX_ENTRIES, {
    message: `At most ${IMPORT_MAX_ENTRIES} entries, all lists together.`,
  });

export const ImportParams = z.strictObject({ profile_id: Uuid });

export const ImportResult = z.object({
  followed: z
    .number()
    .int()
    .meta({ description: 'Entries of `following` the profile follows after the import (new or already).' }),
  blocked: z
    .number()
    .int()
    .meta({ description: 'Entries of `blocks` the profile blocks after the import (new or already).' }),
  muted: z
    .number()
    .int()
    .meta({ description: 'Entries of `mutes` the profile mutes after the import (new or already).' }),
  not_found: z.array(z.string()).meta({
    description:
      'The usernames (or ids, for entries without one) of entries that match no profile that can be followed, blocked or muted.',
  }),
});
