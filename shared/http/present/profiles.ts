import type { ProfileRecord } from '../../domain/entities.js';
import { Profile } from '../contract/schemas/profiles.js';
import { declared } from './declared.js';

export const presentProfile = (profile: ProfileRecord) => declared(Profile, profile);
