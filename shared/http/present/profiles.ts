import type { ProfileRecord } from '../../domain/entities.js';
import type { FollowCounts } from '../../store/follows.js';
import { Profile, ProfileWithCounts } from '../contract/schemas/profiles.js';
import { declared } from './declared.js';

export const presentProfile = (profile: ProfileRecord) => declared(Profile, profile);

/** An agent's accepted operator: its profile and when it accepted. */
export interface OperatorOf {
  profile: ProfileRecord;
  since: string;
}

export const presentProfileWithCounts = (profile: ProfileRecord, counts: FollowCounts, operator: OperatorOf | null) =>
  declared(ProfileWithCounts, {
    ...profile,
    ...counts,
    operator: operator ? { profile: presentProfile(operator.profile), since: operator.since } : null,
  });
