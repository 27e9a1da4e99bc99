/**
 * What a table stream record changes in the search index: a published post (new, edited, or its
 * likes_count folded) is put, any other post state (draft, removed) or a deleted post item is
 * deleted; a profile is put, or deleted once it has `suspended_at` (set by moderation); a
 * follower-count item moves the profile's rank. Posts are indexed from their own image, which
 * carries what filters need, the author's card included: no read of the table per record.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { extractMentions } from '../domain/mentions.js';
import { isSuspended } from '../domain/reports.js';
import { decodeImage, type Decoded } from '../pipeline/decode.js';
import type { IndexChange, PostDocument, ProfileDocument } from '../ports/search-index.js';
import { entityTags, keys } from '../store/keys.js';
import { TABLE } from '../store/table.js';

const PostImage = z.object({
  id: z.string(),
  profile_id: z.string(),
  kind: z.enum(['post', 'reply']),
  body: z.string(),
  images: z.array(z.unknown()),
  status: z.enum(['draft', 'published', 'removed']),
  published_at: z.nullable(z.string()),
  likes_count: z.number(),
  hashtags: z.array(z.string()),
  [TABLE.authorCardAttribute]: z.optional(z.object({ username: z.string() })),
});

const ProfileImage = z.object({
  id: z.string(),
  username: z.string(),
  type: z.enum(['human', 'company', 'agent']),
  name: z.string(),
  call_name: z.string(),
  occupation: z.nullable(z.string()),
  location: z.nullable(z.object({ country_code: z.optional(z.string()) })),
  /** Moderation's suspension: a suspended profile leaves search. */
  suspended_at: z.optional(z.nullable(z.string())),
  /** A scheduled or running erasure: the profile leaves search as a suspended one does. */
  deletion_scheduled_at: z.optional(z.nullable(z.string())),
});

/**
 * A follower count item without `followers_count` counts 0, as every read of it does: a fold whose
 * changes cancel out (a follow and its unfollow in one batch) writes only its watermark.
 */
const FollowerCountImage = z.object({ pk: z.string(), followers_count: z._default(z.number(), 0) });

const postKey = keys.post('');
const profileKey = keys.profile('');
const followerCountKey = keys.followerCount('');

/** The id in a key built as `<prefix><id>` (keys.ts spells each once; the empty id gives the prefix). */
const idAfter = (prefix: string, value: string | undefined): string | undefined =>
  value?.startsWith(prefix) ? value.slice(prefix.length) : undefined;

function postChange(image: z.infer<typeof PostImage>): Decoded<IndexChange> {
  if (image.status !== 'published' || !image.published_at)
    return { ok: true, record: { kind: 'delete_post', id: image.id } };
  const username = image[TABLE.authorCardAttribute]?.username;
  if (!username) return { ok: false, reason: 'a published post without its author card' };
  const post: PostDocument = {
    id: image.id,
    profile_id: image.profile_id,
    username,
    kind: image.kind,
    body: image.body,
    hashtags: image.hashtags,
    mentions: extractMentions(image.body),
    has_media: image.images.length > 0,
    published_at: image.published_at,
    likes_count: image.likes_count,
  };
  return { ok: true, record: { kind: 'put_post', post } };
}

function profileChange(image: z.infer<typeof ProfileImage>): IndexChange {
  if (isSuspended(image)) return { kind: 'delete_profile', id: image.id };
  const profile: ProfileDocument = {
    id: image.id,
    username: image.username,
    name: image.name,
    call_name: image.call_name,
    type: image.type,
    occupation: image.occupation,
    country_code: image.location?.country_code?.toUpperCase() ?? null,
  };
  return { kind: 'put_profile', profile };
}

/** The index change a record asks for; undefined when it asks for none, or why its image is malformed. */
export function indexChangeOf(record: DynamoDBRecord): Decoded<IndexChange> | undefined {
  const data = record.dynamodb;
  if (record.eventName === 'REMOVE') {
    const pk = data?.Keys?.[TABLE.partitionKey]?.S;
    const sk = data?.Keys?.[TABLE.sortKey]?.S;
    const postId = sk === postKey.sk ? idAfter(postKey.pk, pk) : undefined;
    if (postId) return { ok: true, record: { kind: 'delete_post', id: postId } };
    const profileId = sk === profileKey.sk ? idAfter(profileKey.pk, pk) : undefined;
    if (profileId) return { ok: true, record: { kind: 'delete_profile', id: profileId } };
    return undefined;
  }
  const image = data?.NewImage;
  switch (image?.entity?.S) {
    case entityTags.post: {
      const read = decodeImage(PostImage, image);
      return read.ok ? postChange(read.record) : read;
    }
    case entityTags.profile: {
      const read = decodeImage(ProfileImage, image);
      return read.ok ? { ok: true, record: profileChange(read.record) } : read;
    }
    case entityTags.followerCount: {
      const read = decodeImage(FollowerCountImage, image);
      if (!read.ok) return read;
      const profileId = idAfter(followerCountKey.pk, read.record.pk);
      if (!profileId) return { ok: false, reason: 'a follower count outside a profile partition' };
      return {
        ok: true,
        record: { kind: 'followers', profile_id: profileId, followers_count: read.record.followers_count },
      };
    }
    default:
      return undefined;
  }
}
