/**
 * The import of an archive's following.json, blocks.json and mutes.json into a profile (API.md
 * "Import"): entries matched by profile_id, then by username; each written through the same write
 * path as its route (a block ends follows both ways; a follow across a block is refused), a few at
 * once. Blocks go first, then mutes, then follows, so a list that both blocks and follows a
 * profile ends blocked. Idempotent: a repeat writes nothing new and answers the same counts, which
 * count what the profile follows, blocks and mutes after the import, new or already.
 */
import { IMPORT_CONCURRENCY } from '../domain/exports.js';
import type { ProfileRecord } from '../domain/entities.js';
import { isSuspended } from '../domain/reports.js';
import { newBlock, newMute, viewerFilterOf } from '../domain/safety.js';
import { newFollow } from '../domain/social.js';
import { socialEvents } from '../http/present/social-events.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { follow } from '../store/follows.js';
import { getProfiles, profileIdsOfUsernames } from '../store/profiles.js';
import { block, loadSafetySets, mute } from '../store/safety.js';

export interface ImportEntry {
  profile_id?: string | undefined;
  username?: string | undefined;
}

export interface ImportLists {
  following?: ImportEntry[] | undefined;
  blocks?: ImportEntry[] | undefined;
  mutes?: ImportEntry[] | undefined;
}

export interface ImportOutcome {
  followed: number;
  blocked: number;
  muted: number;
  not_found: string[];
}

/** What an entry is called in `not_found`: its username, else its id. */
const nameOf = (entry: ImportEntry) => entry.username ?? entry.profile_id ?? '';

/**
 * Each entry's profile, matched by profile_id, then by username: two BatchGetItem rounds for the
 * usernames, one for the profiles. Not matched: no such profile, a suspended one, or `self`.
 */
async function matchEntries(self: ProfileRecord, entries: ImportEntry[]) {
  const profiles = await getProfiles(entries.flatMap((e) => (e.profile_id ? [e.profile_id] : [])));
  const unmatched = entries.filter((e) => !(e.profile_id && profiles.has(e.profile_id)) && e.username);
  const idsOfNames = await profileIdsOfUsernames(unmatched.map((e) => e.username!));
  for (const [id, profile] of await getProfiles([...idsOfNames.values()].filter((id) => !profiles.has(id))))
    profiles.set(id, profile);
  return (entry: ImportEntry): ProfileRecord | undefined => {
    const id =
      entry.profile_id && profiles.has(entry.profile_id)
        ? entry.profile_id
        : idsOfNames.get(entry.username?.toLowerCase() ?? '');
    const found = id === undefined ? undefined : profiles.get(id);
    return found && !isSuspended(found) && found.id !== self.id ? found : undefined;
  };
}

/** The distinct profiles of a list, and the names of the entries that matched none. */
function resolveList(
  entries: ImportEntry[],
  profileOf: (e: ImportEntry) => ProfileRecord | undefined,
  notFound: Set<string>,
) {
  const profiles = new Map<string, ProfileRecord>();
  for (const entry of entries) {
    const profile = profileOf(entry);
    if (profile) profiles.set(profile.id, profile);
    else notFound.add(nameOf(entry));
  }
  return [...profiles.values()];
}

export async function importRelations(self: ProfileRecord, lists: ImportLists, now: Date): Promise<ImportOutcome> {
  const all = [...(lists.following ?? []), ...(lists.blocks ?? []), ...(lists.mutes ?? [])];
  const profileOf = await matchEntries(self, all);
  const notFound = new Set<string>();
  const toBlock = resolveList(lists.blocks ?? [], profileOf, notFound);
  const toMute = resolveList(lists.mutes ?? [], profileOf, notFound);
  const toFollow = resolveList(lists.following ?? [], profileOf, notFound);

  await mapLimit(toBlock, IMPORT_CONCURRENCY, (other) => block(newBlock(now, self.id, other.id)));
  await mapLimit(toMute, IMPORT_CONCURRENCY, (other) => mute(newMute(now, self.id, other.id)));
  // After the blocks: a follow across a block (either way) is refused, as POST /v1/follows refuses it.
  const viewer = viewerFilterOf(await loadSafetySets(self.id));
  const followable = toFollow.filter((other) => !viewer.isBlockedWith(other.id));
  await mapLimit(followable, IMPORT_CONCURRENCY, (other) => {
    const record = newFollow(now, self.id, other.id);
    return follow(record, socialEvents.profileFollowed(record, self, other));
  });
  return { followed: followable.length, blocked: toBlock.length, muted: toMute.length, not_found: [...notFound] };
}
