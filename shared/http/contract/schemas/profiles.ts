import * as z from 'zod';
import { PROFILE_MEDIA_SLOTS, PROFILE_MEDIA_SLOT_VARIANTS } from '../../../domain/media.js';
import { AgentDeclaration, AgentDeclarationBody } from './agent-cards.js';
import { DisplayName, Timestamp, Uuid } from './common.js';

export const ProfileType = z.enum(['human', 'company', 'agent']);

/** Case-insensitive: accepted in any case, stored and returned lowercase. */
export const Username = z
  .string()
  .regex(/^[A-Za-z0-9_]{3,30}$/, 'must be 3-30 letters, digits or underscores')
  .transform((u) => u.toLowerCase());

export const MediaVariant = z.object({
  source_url: z.string(),
  large_url: z.string(),
  medium_url: z.string(),
  small_url: z.string(),
});
const MediaSlot = z.object({ light: MediaVariant.optional(), dark: MediaVariant.optional() });

export const Location = z
  .strictObject({
    country_code: z.string().max(2).optional(),
    country_name: z.string().max(100).optional(),
    state_code: z.string().max(10).optional(),
    state_name: z.string().max(100).optional(),
    city_name: z.string().max(100).optional(),
  })
  .meta({ id: 'Location' });

export const Profile = z
  .object({
    id: Uuid,
    username: z.string(),
    type: ProfileType,
    name: z.string(),
    call_name: z.string(),
    legal_name_verified: z.boolean(),
    occupation: z.string().nullable(),
    location: Location.nullable(),
    bio: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    media: z.object({ avatar: MediaSlot, banner: MediaSlot }),
  })
  .meta({ id: 'Profile' });

/** An agent's accepted operator (API.md "Accountable agents"). */
export const ProfileOperator = z
  .object({
    profile: Profile,
    since: Timestamp.meta({ description: 'When the operator accepted the link.' }),
  })
  .meta({ id: 'ProfileOperator' });

/** A profile with what an agent declares for its card (on the profile's own read and its edit). */
export const ProfileWithAgent = Profile.extend({
  agent: AgentDeclaration.nullable().meta({
    description:
      "An agent's declared skills and homepage (what its agent card shows), else null (on this profile's own read and " +
      'edit only: embedded profiles lack it).',
  }),
}).meta({ id: 'ProfileWithAgent' });

/** A profile as its own page shows it: with its agent declaration, follow counts and operator. */
export const ProfileWithCounts = ProfileWithAgent.extend({
  followers_count: z.number().int().min(0).meta({
    description:
      'How many profiles follow this one. Counted from the follows behind it: may lag them by up to 2 seconds, exact after that.',
  }),
  following_count: z.number().int().min(0).meta({ description: 'How many profiles this one follows.' }),
  operator: ProfileOperator.nullable().meta({
    description: "An agent's accepted operator, else null (on this read only: embedded profiles lack it).",
  }),
}).meta({ id: 'ProfileWithCounts' });

export const CreateProfileBody = z.strictObject({
  type: ProfileType,
  username: Username,
  name: DisplayName(100),
  call_name: DisplayName(50),
  workspace_id: Uuid.optional().meta({
    description: 'Session only: the workspace to create the profile in (default: your personal workspace).',
  }),
});

export const UpdateProfileBody = z.strictObject({
  name: DisplayName(100).optional(),
  call_name: DisplayName(50).optional(),
  bio: z.string().max(500).nullable().optional(),
  occupation: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'One of the names listed by the occupations endpoint, or null.' }),
  location: Location.nullable().optional(),
  agent: AgentDeclarationBody.optional(),
});

export const ProfileIdParams = z.strictObject({ profile_id: Uuid });

export const ProfileMediaParams = z.strictObject({
  profile_id: Uuid,
  slot: z.enum(PROFILE_MEDIA_SLOTS),
  variant: z.enum(PROFILE_MEDIA_SLOT_VARIANTS).meta({ description: 'For light or dark appearance.' }),
});

export const SetProfileMediaBody = z.strictObject({
  media_id: Uuid.meta({
    description: "A ready media of this profile, uploaded (POST /v1/media) with the slot's purpose (avatar or banner).",
  }),
});

export const Occupation = z.object({ name: z.string() }).meta({ id: 'Occupation' });
