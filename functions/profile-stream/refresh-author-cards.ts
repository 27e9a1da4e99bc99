/**
 * Lambda: the table stream, filtered to profile items → the author cards their posts carry. Posts
 * read in one request because they carry the card; this keeps it no staler than one stream
 * delivery (about a second in AWS, the poller interval locally). Idempotent and order-safe (the
 * card is only replaced by a newer one), so a retried or replayed batch is harmless: its event
 * source takes no partial answer, and a failure sends the whole batch again.
 */
import { streamHandler } from '../../shared/pipeline/stream-consumer.js';
import { entities } from '../../shared/store/entities.js';
import { refreshAuthorCards } from '../../shared/store/posts.js';
import { getProfile } from '../../shared/store/profiles.js';

/** Profiles of one batch refreshed at once (one profile's records stay in order). */
const PROFILES_AT_ONCE = 4;

export const handler = streamHandler<string>(
  {
    records: 'profile record',
    failure: 'author card refresh failed',
    // Only the profile's id: the profile is read as it is now (one consistent read), not as the
    // image has it, so the newest card wins even when records of one profile arrive late.
    select: (record) => {
      const image = record.dynamodb?.NewImage;
      if (record.eventName !== 'MODIFY' || image?.entity?.S !== entities.profile.entity || !image.id?.S)
        return undefined;
      return { ok: true, record: image.id.S };
    },
    laneOf: (profileId) => profileId,
    concurrency: PROFILES_AT_ONCE,
    each: async (profileId) => {
      const profile = await getProfile(profileId, { consistent: true });
      if (profile) await refreshAuthorCards(profile);
    },
    describe: (profileId) => ({ profile_id: profileId }),
  },
  { reportBatchItemFailures: false },
);
