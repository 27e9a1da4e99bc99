import { resolveActingProfile } from '../../auth/acting-profile.js';
import type { GrantPermissionName } from '../../domain/grants.js';
import { viewerFilterOf } from '../../domain/safety.js';
import { loadSafetySets } from '../../store/safety.js';
import { ApiError } from '../contract/errors.js';
import { Uuid } from '../contract/schemas/common.js';
import { parseInput } from '../validation.js';
import type { ApiMiddleware } from './api-event.js';

export interface ActingProfileOptions {
  /** Whether `X-Profile-Id` must be sent (profile-acting writes) or may be (public reads with viewer data). */
  required: boolean;
  /** What an accepted access grant must include for a manager to act through it. */
  permission?: GrantPermissionName | undefined;
}

const missingHeader = () =>
  new ApiError('invalid_request', {
    message: 'The X-Profile-Id header is required.',
    hint: 'Send "X-Profile-Id: <profile_id>" naming the profile to act as (one attached to the API key).',
  });

/**
 * Resolves `X-Profile-Id` to the profile the caller acts as, after authentication (403 when not
 * allowed), and what that profile's blocks and mutes hide from it (`event.viewer`).
 */
export const actingProfile = ({ required, permission }: ActingProfileOptions): ApiMiddleware => ({
  // Not async: a request without the header (every anonymous read) has nothing to wait for.
  before: ({ event }) => {
    const header = event.headers?.['x-profile-id'];
    if (header === undefined || header === '') {
      if (required) throw missingHeader();
      return;
    }
    const profileId = parseInput('header', Uuid, header);
    // A public read with X-Profile-Id but no credential is simply anonymous.
    const { auth } = event;
    if (!auth?.principal) return;
    return resolveActingProfile(auth.principal, profileId, permission, event.reads).then(async (profile) => {
      auth.actingProfile = profile;
      // The sets read ahead were read for the claimed profile: they count only once it is the acting one.
      const ahead = event.safetyAhead;
      event.viewer = viewerFilterOf(await (ahead?.profileId === profile.id ? ahead.sets : loadSafetySets(profile.id)));
    });
  },
});
