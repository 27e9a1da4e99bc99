/** What the search index's stream consumer makes of the follower count items it reads. */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { indexChangeOf } from '../../shared/search/index-changes.js';
import { entityTags, keys } from '../../shared/store/keys.js';
import { TABLE } from '../../shared/store/table.js';

const profileId = '0b8f6c1e-3d2a-4f5b-9c7e-1a2b3c4d5e6f';

const modified = (image: Record<string, unknown>): DynamoDBRecord => ({
  eventName: 'MODIFY',
  dynamodb: {
    SequenceNumber: '100',
    NewImage: marshall(image) as Record<string, AttributeValue>,
  },
});

describe('search index changes of follower counts', () => {
  const item = {
    ...keys.followerCount(profileId),
    entity: entityTags.followerCount,
    [`${TABLE.watermarkPrefix}shard-1`]: '1|2',
  };

  it('gives the profile its folded follower count', () => {
    expect(indexChangeOf(modified({ ...item, followers_count: 12 }))).toEqual({
      ok: true,
      record: { kind: 'followers', profile_id: profileId, followers_count: 12 },
    });
  });

  it('reads a count item that holds only its watermark (changes that cancelled out) as 0 followers', () => {
    expect(indexChangeOf(modified(item))).toEqual({
      ok: true,
      record: { kind: 'followers', profile_id: profileId, followers_count: 0 },
    });
  });
});
