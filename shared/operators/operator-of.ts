/** The operator a profile shows (GET /v1/profiles/{id} and the export's profile.json). */
import type { OperatorSlotRecord } from '../domain/operators.js';
import { isSuspended } from '../domain/reports.js';
import type { OperatorOf } from '../http/present/profiles.js';
import { getProfile } from '../store/profiles.js';

/** The accepted operator, unless its profile is gone or suspended (then the agent shows none). */
export async function operatorOf(slot: OperatorSlotRecord | undefined): Promise<OperatorOf | null> {
  if (slot?.status !== 'accepted' || !slot.since) return null;
  const profile = await getProfile(slot.operator_profile_id);
  return profile && !isSuspended(profile) ? { profile, since: slot.since } : null;
}
