/**
 * The profiles a search leaves out for its caller: those the acting profile blocks or mutes
 * (API.md "Search"), applied at query time, never baked into documents.
 */
import type { ProfileRecord } from '../domain/entities.js';

/**
 * The viewer filter of the safety capability (blocks and mutes) plugs in here: until it exists,
 * an acting profile hides nobody.
 */
export function hiddenProfileIds(viewer: ProfileRecord | undefined): Promise<string[]> {
  void viewer;
  return Promise.resolve([]);
}

/** Whether a profile record is suspended (moderation sets `suspended_at`): it leaves every list. */
export const isSuspended = (profile: object): boolean =>
  typeof (profile as { suspended_at?: unknown }).suspended_at === 'string';
