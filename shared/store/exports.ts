/**
 * Data exports (domain/exports.ts) in the table: started with the user's one claim in one
 * transaction (a second start while one runs is refused), settled with the claim's release (and,
 * when ready, the mail that says so) in another.
 */
import type { ExportRecord } from '../domain/exports.js';
import type { MailRecord } from '../domain/mail.js';
import { AppError } from '../errors.js';
import { entities } from './entities.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getItem, indexChanges, itemOf, putTransactItem } from './items.js';
import { keys } from './keys.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPath } from './paths.js';
import { TABLE } from './table.js';
import { transact, type TransactItem } from './transact.js';

const oneAtATime = () =>
  new AppError('invalid_state', {
    message: 'An export of this account is already being made.',
    hint: 'Wait until it is ready (GET /v1/me/exports/{export_id}; a mail says so too), then ask again.',
  });

/** No claim, or one whose time ran out (its job died without settling; TTL may not have removed it yet). */
const claimFree = (now: Date) =>
  when.any(when.absent(), when.compare(TABLE.ttlAttribute, '<', Math.floor(now.getTime() / 1000)));

/** Records the export with the user's claim: `invalid_state` while another export of the user runs. */
export async function startExport(record: ExportRecord, now: Date): Promise<void> {
  const claim = { user_id: record.user_id, export_id: record.id, created_at: record.created_at };
  await transact(
    [
      { Put: { ...conditionRequest(claimFree(now)), Item: itemOf(entities.exportClaim, claim) } },
      putTransactItem(entities.dataExport, record),
    ],
    () => oneAtATime(),
  );
}

export function getExport(id: string): Promise<ExportRecord | undefined> {
  return getItem(entities.dataExport, keys.dataExport(id), { consistent: true });
}

export function listExports(userId: string, request: PageRequest): Promise<Page<ExportRecord>> {
  return pathPage(entities.dataExport, 'byUser', { user_id: userId }, request, { order: 'newest_first' });
}

/** The exports whose job has not settled them, oldest first (the local runtime queues them again at start). */
export const pendingExports = (): Promise<ExportRecord[]> => queryPath(entities.dataExport, 'pending', {});

/** What the job came to: the archive's size, or why it gave up. */
export type ExportOutcome =
  | { status: 'ready'; completed_at: string; size_bytes: number; expires_at: string; mail: MailRecord }
  | { status: 'failed'; completed_at: string; failure_reason: string };

const stillPending = when.is('status', 'pending');

/**
 * Settles a pending export and frees its claim (only its own: a newer export's claim stays), with
 * the "ready" mail in the same transaction. False when it was settled already (a replayed job).
 */
export async function settleExport(record: ExportRecord, outcome: ExportOutcome): Promise<boolean> {
  const { mail, ...fields } = outcome.status === 'ready' ? outcome : { ...outcome, mail: undefined };
  // Settled, it leaves the pending path.
  const placed = indexChanges(entities.dataExport, { ...record, ...fields });
  const items: TransactItem[] = [
    {
      Update: updateRequest({
        key: keys.dataExport(record.id),
        set: { ...fields, ...placed.set },
        remove: placed.remove,
        when: [when.exists(), stillPending],
      }),
    },
    {
      Delete: {
        ...conditionRequest(when.any(when.absent(), when.is('export_id', record.id))),
        Key: keys.exportClaim(record.user_id),
      },
    },
    ...(mail ? [putTransactItem(entities.mail, mail)] : []),
  ];
  try {
    await transact(items, () => new SettledAlready());
    return true;
  } catch (error) {
    if (error instanceof SettledAlready) return false;
    throw error;
  }
}

class SettledAlready extends Error {}
