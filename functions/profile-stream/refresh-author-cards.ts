/**
 * Lambda: the table stream, filtered to profile items → the author cards their posts carry. Posts
 * read in one request because they carry the card; this keeps it no staler than one stream
 * delivery (about a second in AWS, the poller interval locally). Idempotent and order-safe (the
 * card is only replaced by a newer one), so a retried or replayed batch is harmless.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { entities } from '../../shared/store/entities.js';
import { refreshAuthorCards } from '../../shared/store/posts.js';
import { getProfile } from '../../shared/store/profiles.js';

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'MODIFY' || image?.entity?.S !== entities.profile.entity) continue;
    // The profile as it is now (one consistent read), not as the image has it: the newest card
    // wins even when records of one profile arrive late, and nothing depends on image decoding.
    const profile = image.id?.S ? await getProfile(image.id.S, { consistent: true }) : undefined;
    if (profile) await refreshAuthorCards(profile);
  }
};
