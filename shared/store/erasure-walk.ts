/**
 * The erasure's walk over the table: one page of one parallel Scan segment per call, filtered to
 * the items that name a subject. A Scan because most of what a profile leaves has no access path
 * from the profile (its likes live under their targets, its drafts and comments on no list of
 * its own, its entries in others' feeds and notifications, the stored webhook payloads that
 * carry it): the walk reads every item once per pass, and writes only what it erases
 * (docs/decisions.md "Erasure walks the table"). Never on a request path.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ERASURE_SEGMENTS } from '../domain/erasure.js';
import { db, tableName } from './client.js';

type Item = Record<string, unknown>;

/** Items read per page (before the filter): a page's erasing stays well inside one consumer's run. */
const PAGE_ITEMS = 500;

export interface WalkPage {
  items: Item[];
  /** Where the segment's next page starts; absent when the segment is walked. */
  cursor?: Record<string, unknown>;
}

/**
 * One page of segment `segment`: the items holding any of the needles in any attribute, keys and
 * index attributes included (DynamoDB's `contains` on each attribute the needles can hide in is
 * not enough: they hide in nested maps too, so the page is filtered here, on what was read).
 */
export async function walkPage(
  segment: number,
  cursor: Record<string, unknown> | undefined,
  isTrace: (item: Item) => boolean,
): Promise<WalkPage> {
  const page = await db().send(
    new ScanCommand({
      TableName: tableName(),
      Segment: segment,
      TotalSegments: ERASURE_SEGMENTS,
      Limit: PAGE_ITEMS,
      ExclusiveStartKey: cursor,
      // The job's own walk must see its deletes of the pages before.
      ConsistentRead: true,
    }),
  );
  return {
    items: (page.Items ?? []).filter(isTrace),
    ...(page.LastEvaluatedKey ? { cursor: page.LastEvaluatedKey } : {}),
  };
}
