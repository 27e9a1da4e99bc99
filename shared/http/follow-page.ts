import type { FollowRecord } from '../domain/social.js';
import type { Page } from '../store/pagination.js';
import { getProfile, getProfiles } from '../store/profiles.js';
import { notFound } from './errors.js';
import { present } from './present.js';

/** A page of follows as `{ profile, followed_at }` items: the profile must exist (404), profiles in one BatchGetItem. */
export async function followPage(profileId: string, pending: Promise<Page<FollowRecord>>, other: (f: FollowRecord) => string) {
  const [profile, page] = await Promise.all([getProfile(profileId), pending]);
  if (!profile) throw notFound('Profile');
  const profiles = await getProfiles(page.items.map(other));
  return {
    items: page.items.flatMap((f) => {
      const p = profiles.get(other(f));
      return p ? [{ profile: present.profile(p), followed_at: f.created_at }] : [];
    }),
    next_cursor: page.next_cursor,
  };
}
