/**
 * Key builders for every entity in the single table. Nothing else spells a key.
 *
 * | entity            | pk                     | sk                 | gsi1pk / gsi1sk                            |
 * |-------------------|------------------------|--------------------|--------------------------------------------|
 * | user              | USER#<id>              | USER               |                                            |
 * | email (unique)    | EMAIL#<email>          | EMAIL              |                                            |
 * | workspace         | WS#<id>                | WS                 |                                            |
 * | membership        | WS#<id>                | MEMBER#<user_id>   | USER#<user_id>#WORKSPACES / <joined>#<ws>  |
 * | session           | SESSION#<id>           | SESSION            | USER#<user_id>#SESSIONS / <created>#<id>   |
 * | api key           | APIKEY#<id>            | APIKEY             | WS#<ws>#APIKEYS / <created>#<id>           |
 * | profile           | PROFILE#<id>           | PROFILE            | WS#<ws>#PROFILES / <created>#<id>          |
 * | username (unique) | USERNAME#<username>    | USERNAME           |                                            |
 * | post              | POST#<id>              | POST               | PROFILE#<author>#POSTS / <published>#<id>  |
 * |                   |                        |                    |   (only while published; newest first)     |
 * |                   |                        |                    | gsi2: POST#<quoted>#QUOTES / <published>#<id> |
 * |                   |                        |                    |   (quotes only, only while published)      |
 * | post reaction     | POST#<post_id>         | REACTION#<profile> |                                            |
 * | comment           | COMMENT#<id>           | COMMENT            | POST#<post_id>#COMMENTS / <created>#<id>   |
 * | comment reaction  | COMMENT#<comment_id>   | REACTION#<profile> |                                            |
 * | follow            | FOLLOW#<from>#<to>     | FOLLOW             | PROFILE#<to>#FOLLOWERS / <created>#<from>  |
 * |                   |                        |                    | gsi2: PROFILE#<from>#FOLLOWING / <created>#<to> |
 * | message           | CONVERSATION#<a>#<b>   | MSG#<created>#<id> |   (a < b: both directions, one partition)  |
 * | access grant      | GRANT#<id>             | GRANT              | PROFILE#<managed>#GRANTS / <created>#<id>  |
 * | grant access      | PROFILE#<managed>#MANAGERS | MANAGER#<manager> | (exists while a grant is accepted)       |
 * | event (outbox)    | EVENT#<id>             | EVENT              |   (expires ≥ 30 days after created_at)     |
 * | webhook endpoint  | WHEP#<id>              | WHEP               | WS#<ws>#WEBHOOKS / <created>#<id>          |
 * | webhook totals    | WS#<ws>                | WEBHOOK_TOTALS     |   (folded from the stream; per-shard watermarks) |
 * | active endpoints  | WS#<ws>                | WEBHOOK_ACTIVE_ENDPOINTS | (count, for the per-workspace cap)   |
 * | sending (ws)      | WS#<ws>                | WEBHOOK_SENDING    |   (in-flight attempt leases of the workspace and of each of its endpoints) |
 * | sending (endpoint)| WHEP#<id>              | SENDING            |   (next rate-limit slot)                   |
 * | webhook delivery  | WHDL#<id>              | WHDL               | WS#<ws>#WHDELIVERIES / <updated>#<id>      |
 * |                   |                        |                    | gsi2: WHDUE#<0-3> / <due>#<id>             |
 * |                   |                        |                    |   (only while pending/delivering; a claim  |
 * |                   |                        |                    |    leaves it at the due time it was claimed at) |
 * |                   |                        |                    | gsi2: WHEP#<endpoint>#FAILED / <updated>#<id> |
 * |                   |                        |                    |   (only while failed: recovery)            |
 * | delivery attempt  | WHDL#<delivery_id>     | ATTEMPT#<nnn>      |                                            |
 * | feed entry        | FEED#<reader>          | <published>#<post> |   (TTL: 30 days after published)           |
 * | large follows     | FEEDLARGE#<reader>     | AUTHORS            |   (followed authors merged at read time)   |
 * | read-time author  | FEEDAUTHOR#<author>    | FANOUT             |   (the author's posts are not fanned out)  |
 * | media             | MEDIA#<id>             | MEDIA              |   (TTL while never attached or once replaced) |
 * | post image claim  | POSTIMAGE#<media_id>   | POSTIMAGE          |   (while a post not removed shows the media: one post per media) |
 * | stream checkpoint | STREAMCHECKPOINT       | SHARD#<shard_id>   |   (local runtime's stream poller only)     |
 * | stream started    | STREAMCHECKPOINT       | STARTED            |   (the poller has read the stream before)  |
 * | rate-limit window | RATELIMIT#<policy>#<subject> | WINDOW#<seconds>#<start> | (TTL: gone after the window)     |
 * | idempotency key   | IDEMPOTENCY#<credential>#<key hash> | IDEMPOTENCY | (TTL: 24 h)                          |
 */
const RATE_LIMIT_PREFIX = 'RATELIMIT#';
const FEED_INBOX_PREFIX = 'FEED#';
const FEED_LARGE_AUTHORS_PREFIX = 'FEEDLARGE#';
const FEED_AUTHOR_PREFIX = 'FEEDAUTHOR#';

export const keys = {
  user: (id: string) => ({ pk: `USER#${id}`, sk: 'USER' }),
  email: (email: string) => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  workspace: (id: string) => ({ pk: `WS#${id}`, sk: 'WS' }),
  membership: (workspaceId: string, userId: string) => ({ pk: `WS#${workspaceId}`, sk: `MEMBER#${userId}` }),
  userWorkspaces: (userId: string) => `USER#${userId}#WORKSPACES`,
  userSessions: (userId: string) => `USER#${userId}#SESSIONS`,
  session: (id: string) => ({ pk: `SESSION#${id}`, sk: 'SESSION' }),
  apiKey: (id: string) => ({ pk: `APIKEY#${id}`, sk: 'APIKEY' }),
  workspaceApiKeys: (workspaceId: string) => `WS#${workspaceId}#APIKEYS`,
  profile: (id: string) => ({ pk: `PROFILE#${id}`, sk: 'PROFILE' }),
  workspaceProfiles: (workspaceId: string) => `WS#${workspaceId}#PROFILES`,
  username: (username: string) => ({ pk: `USERNAME#${username}`, sk: 'USERNAME' }),

  post: (id: string) => ({ pk: `POST#${id}`, sk: 'POST' }),
  profilePosts: (profileId: string) => `PROFILE#${profileId}#POSTS`,
  /** The published quotes of a post. */
  postQuotes: (postId: string) => `POST#${postId}#QUOTES`,
  postReaction: (postId: string, profileId: string) => ({ pk: `POST#${postId}`, sk: `REACTION#${profileId}` }),
  comment: (id: string) => ({ pk: `COMMENT#${id}`, sk: 'COMMENT' }),
  postComments: (postId: string) => `POST#${postId}#COMMENTS`,
  commentReaction: (commentId: string, profileId: string) => ({
    pk: `COMMENT#${commentId}`,
    sk: `REACTION#${profileId}`,
  }),
  follow: (followerId: string, followedId: string) => ({ pk: `FOLLOW#${followerId}#${followedId}`, sk: 'FOLLOW' }),
  profileFollowers: (profileId: string) => `PROFILE#${profileId}#FOLLOWERS`,
  profileFollowing: (profileId: string) => `PROFILE#${profileId}#FOLLOWING`,
  conversation: (a: string, b: string) => `CONVERSATION#${a}#${b}`,
  messageSortKey: (createdAt: string, id: string) => `MSG#${createdAt}#${id}`,
  /** What every message's sort key starts with (a conversation's messages, `begins_with`). */
  messageSortKeyPrefix: 'MSG#',
  grant: (id: string) => ({ pk: `GRANT#${id}`, sk: 'GRANT' }),
  profileGrants: (managedId: string) => `PROFILE#${managedId}#GRANTS`,
  grantManagers: (managedId: string) => `PROFILE#${managedId}#MANAGERS`,
  grantAccess: (managedId: string, managerId: string) => ({
    pk: `PROFILE#${managedId}#MANAGERS`,
    sk: `MANAGER#${managerId}`,
  }),
  event: (id: string) => ({ pk: `EVENT#${id}`, sk: 'EVENT' }),

  webhookEndpoint: (id: string) => ({ pk: `WHEP#${id}`, sk: 'WHEP' }),
  workspaceWebhookEndpoints: (workspaceId: string) => `WS#${workspaceId}#WEBHOOKS`,
  /** The workspace's delivery counters, folded from the table stream. */
  webhookTotals: (workspaceId: string) => ({ pk: `WS#${workspaceId}`, sk: 'WEBHOOK_TOTALS' }),
  webhookActiveEndpoints: (workspaceId: string) => ({ pk: `WS#${workspaceId}`, sk: 'WEBHOOK_ACTIVE_ENDPOINTS' }),
  webhookWorkspaceSending: (workspaceId: string) => ({ pk: `WS#${workspaceId}`, sk: 'WEBHOOK_SENDING' }),
  webhookEndpointSending: (endpointId: string) => ({ pk: `WHEP#${endpointId}`, sk: 'SENDING' }),
  webhookDelivery: (id: string) => ({ pk: `WHDL#${id}`, sk: 'WHDL' }),
  webhookDeliveryPartition: (id: string) => `WHDL#${id}`,
  webhookAttempt: (deliveryId: string, n: number) => ({
    pk: `WHDL#${deliveryId}`,
    sk: `ATTEMPT#${String(n).padStart(3, '0')}`,
  }),
  workspaceWebhookDeliveries: (workspaceId: string) => `WS#${workspaceId}#WHDELIVERIES`,
  /** The sweeper's index of pending/delivering deliveries by due time, in 4 shards (first id digit). */
  webhookDueShards: ['WHDUE#0', 'WHDUE#1', 'WHDUE#2', 'WHDUE#3'] as const,
  webhookDueShard: (deliveryId: string) => `WHDUE#${parseInt(deliveryId[0] ?? '0', 16) % 4}`,
  /** An endpoint's failed deliveries by updated_at (recovery reads it). */
  endpointFailedDeliveries: (endpointId: string) => `WHEP#${endpointId}#FAILED`,
  /** A reader's inbox: one small item per post fanned out to them, newest last by sort key. */
  feedInbox: (readerId: string) => `${FEED_INBOX_PREFIX}${readerId}`,
  feedEntry: (readerId: string, publishedAt: string, postId: string) => ({
    pk: `${FEED_INBOX_PREFIX}${readerId}`,
    sk: timeSortKey(publishedAt, postId),
  }),
  /** The authors a reader follows whose posts are merged into the reader's feed at read time. */
  feedLargeAuthors: (readerId: string) => ({ pk: `${FEED_LARGE_AUTHORS_PREFIX}${readerId}`, sk: 'AUTHORS' }),
  /** Present once an author's posts are merged at read time instead of fanned out. */
  feedAuthorMode: (authorId: string) => ({ pk: `${FEED_AUTHOR_PREFIX}${authorId}`, sk: 'FANOUT' }),
  /** What the partition keys of the feed's items start with (the IAM conditions of the functions that write them). */
  feedPrefixes: {
    inbox: FEED_INBOX_PREFIX,
    largeAuthors: FEED_LARGE_AUTHORS_PREFIX,
    author: FEED_AUTHOR_PREFIX,
  },
  media: (id: string) => ({ pk: `MEDIA#${id}`, sk: 'MEDIA' }),
  postImageClaim: (mediaId: string) => ({ pk: `POSTIMAGE#${mediaId}`, sk: 'POSTIMAGE' }),
  streamCheckpoint: (shardId: string) => ({ pk: 'STREAMCHECKPOINT', sk: `SHARD#${shardId}` }),
  streamStarted: { pk: 'STREAMCHECKPOINT', sk: 'STARTED' },

  // --- open to the internet ---
  rateLimitWindow: (policy: string, subject: string, windowSeconds: number, windowStart: number) => ({
    pk: `${RATE_LIMIT_PREFIX}${policy}#${subject}`,
    sk: `WINDOW#${windowSeconds}#${windowStart}`,
  }),
  idempotencyKey: (credential: string, keyHash: string) => ({
    pk: `IDEMPOTENCY#${credential}#${keyHash}`,
    sk: 'IDEMPOTENCY',
  }),
  /** What every rate-limit window's partition key starts with (the IAM condition of the read-only functions). */
  rateLimitPrefix: RATE_LIMIT_PREFIX,
};

/**
 * The `entity` attribute of each kind of item: what a stream consumer, its event source filter
 * (infra) and `recordOf` tell items apart by.
 */
export const entityTags = {
  user: 'user',
  email: 'email',
  workspace: 'workspace',
  membership: 'membership',
  session: 'session',
  apiKey: 'api_key',
  profile: 'profile',
  username: 'username',
  post: 'post',
  comment: 'comment',
  follow: 'follow',
  message: 'message',
  grant: 'access_grant',
  grantAccess: 'grant_access',
  event: 'event',
  reaction: 'reaction',
  webhookEndpoint: 'webhook_endpoint',
  webhookDelivery: 'webhook_delivery',
  webhookAttempt: 'webhook_attempt',
  webhookTotals: 'webhook_totals',
  webhookActiveEndpoints: 'webhook_active_endpoints',
  webhookSending: 'webhook_sending',
  media: 'media',
  postImageClaim: 'post_image_claim',
  streamCheckpoint: 'stream_checkpoint',
  feedEntry: 'feed_entry',
  feedLargeAuthors: 'feed_large_authors',
  feedAuthorMode: 'feed_author_mode',
} as const;

/** A sort key that orders by time and stays unique: `<iso timestamp>#<id>`. */
export const timeSortKey = (iso: string, id: string) => `${iso}#${id}`;
