/** The earlier versions of posts and comments: one item per edit, written in the edit's transaction. */
import type { VersionRecord } from '../domain/posts.js';
import { entities } from './entities.js';
import { putTransactItem } from './items.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import type { TransactItem } from './transact.js';

/** The version an edit replaces, as one more item of the edit's transaction. */
export const versionItem = (version: VersionRecord): TransactItem => putTransactItem(entities.version, version);

/** A post's or comment's earlier versions, newest first. */
export function listVersions(objectId: string, request: PageRequest): Promise<Page<VersionRecord>> {
  return pathPage(entities.version, 'ofObject', { object_id: objectId }, request, { order: 'newest_first' });
}
