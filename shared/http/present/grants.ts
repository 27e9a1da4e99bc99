import type { ProfileRecord } from '../../domain/entities.js';
import type { GrantRecord } from '../../domain/grants.js';
import { AccessGrant } from '../contract/schemas/grants.js';
import { declared } from './declared.js';
import { presentProfile } from './profiles.js';

export const presentGrant = (grant: GrantRecord, manager: ProfileRecord) =>
  declared(AccessGrant, { ...grant, manager_profile: presentProfile(manager) });
