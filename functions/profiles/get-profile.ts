import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { presentProfileWithCounts } from '../../shared/http/present/profiles.js';
import { operatorOf } from '../../shared/operators/operator-of.js';
import { getFollowCounts } from '../../shared/store/follows.js';
import { getOperatorSlot } from '../../shared/store/operators.js';
import { getProfile } from '../../shared/store/profiles.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';

/**
 * The profile, its two follow counts and its operator slot: one BatchGetItem (with the
 * credential's, when one is sent). The slot is read for every profile, so an agent's operator
 * costs no round trip of its own; only an accepted one adds the read of the operator's profile.
 */
const readProfile = ({ params }: PrefetchRequest<typeof routes.getProfile>, reads: ReadBatch) =>
  Promise.all([
    getProfile(params.profile_id, reads),
    getFollowCounts(params.profile_id, reads),
    getOperatorSlot(params.profile_id, reads),
  ]);

/** Public; acting as a profile on the other side of a block, not found. */
export const handler = httpHandler(
  routes.getProfile,
  async ({ prefetched, viewer }) => {
    const [profile, counts, slot] = await prefetched;
    if (!profile || isSuspended(profile) || viewer.isBlockedWith(profile.id)) throw notFound('Profile');
    return presentProfileWithCounts(profile, counts, await operatorOf(slot));
  },
  { prefetch: readProfile },
);
