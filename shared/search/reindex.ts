/**
 * Rebuilds the search index from the table: every post, profile and follower count read as the
 * stream consumer would read its record (indexChangeOf), so the index built here is the one the
 * stream builds. The index is emptied first; what the stream writes meanwhile is written again by
 * its own records, so a rebuild while the service runs leaves it complete.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { logger } from '../logger.js';
import type { IndexChange, SearchIndex } from '../ports/search-index.js';
import { entityTags } from '../store/keys.js';
import { scanEntities } from '../store/scan-entities.js';
import { indexChangeOf } from './index-changes.js';

/** Items the rebuild reads. */
const INDEXED = [entityTags.post, entityTags.profile, entityTags.followerCount];

/** The stream record an item would make (a new image, as the stream carries it). */
const asRecord = (item: Record<string, unknown>): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) as never },
});

/** Returns how many changes were written (documents put or deleted, follower counts set). */
export async function reindexFromTable(index: SearchIndex): Promise<number> {
  await index.clear();
  let written = 0;
  for await (const items of scanEntities(INDEXED)) {
    const changes: IndexChange[] = [];
    for (const item of items) {
      const change = indexChangeOf(asRecord(item));
      if (change?.ok) changes.push(change.record);
      else if (change) logger.warn('item left out of the search index', { pk: item.pk, reason: change.reason });
    }
    // Deletes of what is not there are no-ops: only what is searchable is written.
    const puts = changes.filter((change) => !change.kind.startsWith('delete_'));
    if (puts.length > 0) await index.write(puts);
    written += puts.length;
  }
  return written;
}
