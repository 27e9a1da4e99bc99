import type { ProfileRecord } from '../../domain/entities.js';
import type { FollowCounts } from '../../store/follows.js';
import { Profile, ProfileWithCounts } from '../contract/schemas/profiles.js';
import { declared } from './declared.js';

export const presentProfile = (profile: ProfileRecord) => declared(Profile, profile);

export const presentProfileWithCounts = (profile: ProfileRecord, counts: FollowCounts) =>
  declared(ProfileWithCounts, { ...profile, ...counts });
