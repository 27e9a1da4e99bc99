/**
 * What an erasure's path reaches beyond its own items: the profiles it acted on (a followed
 * profile, the other side of a conversation, the author of a post it liked or answered), whose own
 * partitions hold the subject's traces (the notifications it acted in, their event logs and the
 * stored payloads of their events that carry it), and the keys of items it derived (a notification
 * group of a post it liked, the reverse item of a block, a follower's set of read-time authors).
 * Each is bounded by that profile's own retention (notifications 90 days, log 7, events 30), never
 * by the table. A follower is not reached: what its feed holds of the subject's posts (inbox
 * entries, `feed.post` events) is their ids alone, which resolve to nothing once the posts are
 * erased and are left out when read (docs/decisions.md "Feed inbox entries name no author").
 */
import { isTrace } from '../domain/erasure.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { batchGet, type ItemKey } from './batch.js';
import type { ErasureTarget } from './erasure-items.js';
import { partitionItems } from './erasure-walk.js';
import { entities } from './entities.js';
import { keys } from './keys.js';
import { queryPathItems } from './paths.js';

type Item = Record<string, unknown>;

/** The profiles a page met and the keys it derived. */
export interface ErasureReach {
  profile_ids: string[];
  keys: ItemKey[];
}

export const noReach = (): ErasureReach => ({ profile_ids: [], keys: [] });

/** Profiles reached at once (each three small Queries). */
const PROFILES_AT_ONCE = 16;

/** The traces of the subjects in what `reach` names (the subjects' own partitions are walked by their own paths). */
export async function reachedTraces(reach: ErasureReach, target: ErasureTarget): Promise<Item[]> {
  const trace = (item: Item) => isTrace(item, target.needles);
  const others = [...new Set(reach.profile_ids)].filter((id) => !target.profileIds.has(id));
  const found = await mapLimit(others, PROFILES_AT_ONCE, async (profileId) => {
    const [inbox, log, events] = await Promise.all([
      partitionItems(keys.notificationInbox(profileId)),
      partitionItems(keys.eventLog(profileId)),
      queryPathItems(entities.event, 'byProfile', { profile_id: profileId }),
    ]);
    return [...inbox.filter(trace), ...log.filter(trace), ...events.filter(trace)];
  });
  const items = [...(await batchGet(reach.keys, { consistent: true })).values()].filter(trace);
  return [...found.flat(), ...items];
}
