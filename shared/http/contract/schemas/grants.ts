import * as z from 'zod';
import { GRANT_PERMISSIONS } from '../../../domain/grants.js';
import { Timestamp, Uuid } from './common.js';
import { Profile } from './profiles.js';

export const GrantPermission = z.enum(GRANT_PERMISSIONS);

export const AccessGrant = z
  .object({
    id: Uuid,
    profile_id: Uuid.meta({ description: 'The managed profile.' }),
    manager_profile: Profile.meta({ description: 'The invited operator.' }),
    permissions: z.array(GrantPermission),
    status: z.enum(['pending', 'accepted', 'declined', 'revoked']),
    accepted_at: Timestamp.nullable(),
    declined_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    resent_at: Timestamp.nullable().meta({ description: 'When the invitation was last resent.' }),
    resend_count: z.number().int().min(0),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'AccessGrant' });

export const CreateGrantBody = z.strictObject({
  profile_id: Uuid.meta({ description: 'The profile to be managed (yours).' }),
  manager_profile_id: Uuid.meta({ description: 'The profile invited to manage it.' }),
  permissions: z
    .array(GrantPermission)
    .min(1)
    .refine((p) => new Set(p).size === p.length, 'must not repeat a permission'),
});

export const GrantIdParams = z.strictObject({ grant_id: Uuid });

export const GrantResult = z.object({ access_grant: AccessGrant });
export const Invitation = z.object({ access_grant: AccessGrant, managed_profile: Profile });
