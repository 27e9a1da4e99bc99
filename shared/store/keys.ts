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
 * | passkey           | PASSKEY#<id>           | PASSKEY            | USER#<user_id>#PASSKEYS / <created>#<id>   |
 * |                   |                        |                    |   (id derived from the credential ID)      |
 * | passkey challenge | PASSKEYCHALLENGE#<id>  | CHALLENGE          |   (TTL: after its 5 minutes; single use)   |
 * | api key           | APIKEY#<id>            | APIKEY             | WS#<ws>#APIKEYS / <created>#<id>           |
 * | profile           | PROFILE#<id>           | PROFILE            | WS#<ws>#PROFILES / <created>#<id>          |
 * | username (unique) | USERNAME#<username>    | USERNAME           |                                            |
 * | post              | POST#<id>              | POST               | PROFILE#<author>#POSTS / <published>#<id>  |
 * |                   |                        |                    |   (only while published; newest first)     |
 * |                   |                        |                    | or PROFILE#<author>#DRAFTS / <created>#<id> |
 * |                   |                        |                    |   (only while a draft)                     |
 * |                   |                        |                    | gsi2: POST#<quoted>#QUOTES / <published>#<id> |
 * |                   |                        |                    |   (quotes only, only while published)      |
 * |                   |                        |                    | gsi2: POST#<parent>#REPLIES / <published>#<id> |
 * |                   |                        |                    |   (replies only, only while published)     |
 * | post reaction     | POST#<post_id>#REACTIONS#<shard of profile> | REACTION#<profile> | PROFILE#<profile>#LIKES / <created>#<pk> |
 * | quote (counted)   | POST#<quoted>#QUOTED#<shard of quote> | QUOTE#<quote_id> | (exists while the quote is published) |
 * | comment           | COMMENT#<id>           | COMMENT            | POST#<post_id>#COMMENTS / <created>#<id>   |
 * |                   |                        |                    | gsi2: PROFILE#<author>#COMMENTS / <created>#<id> |
 * | comment reaction  | COMMENT#<comment_id>#REACTIONS#<shard of profile> | REACTION#<profile> | PROFILE#<profile>#LIKES / <created>#<pk> |
 * | earlier version   | VERSIONS#<post or comment id> | V#<replaced>#<id> | (one per edit: the history routes)   |
 * | follow            | FOLLOWERS#<to>#<shard of from> | FOLLOWER#<from> | PROFILE#<to>#FOLLOWERS / <created>#<from> |
 * |                   |                        |                    | gsi2: PROFILE#<from>#FOLLOWING / <created>#<to> |
 * | follower count    | PROFILE#<id>           | FOLLOWER_COUNT     |   (folded from the stream; per-shard watermarks) |
 * | following count   | PROFILE#<id>           | FOLLOWING_COUNT    |   (moves with each follow, in its transaction) |
 * | message           | CONVERSATION#<a>#<b>   | MSG#<created>#<id> |   (a < b: both directions, one partition)  |
 * | access grant      | GRANT#<id>             | GRANT              | PROFILE#<managed>#GRANTS / <created>#<id>  |
 * |                   |                        |                    | gsi2: PROFILE#<manager>#MANAGES / <created>#<id> |
 * | grant access      | PROFILE#<managed>#MANAGERS | MANAGER#<manager> | (exists while a grant is accepted)       |
 * | event (outbox)    | EVENT#<id>             | EVENT              | PROFILE#<profile>#EVENTS / <created>#<id>  |
 * |                   |                        |                    |   (expires ≥ 30 days after created_at; operational events: no index) |
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
 * | media             | MEDIA#<id>             | MEDIA              | PROFILE#<profile>#MEDIA / <created>#<id>   |
 * |                   |                        |                    |   (TTL while never attached or once replaced) |
 * | post image claim  | POSTIMAGE#<media_id>   | POSTIMAGE          |   (while a post not removed shows the media: one post per media) |
 * | stream checkpoint | STREAMCHECKPOINT       | SHARD#<consumer>#<shard_id> | (local runtime's stream poller only) |
 * | stream started    | STREAMCHECKPOINT       | STARTED            |   (the poller has read the stream before)  |
 * | rate-limit window | RATELIMIT#<policy>#<subject> | WINDOW#<seconds>#<start> | (TTL: gone after the window)     |
 * | idempotency key   | IDEMPOTENCY#<credential>#<key hash> | IDEMPOTENCY | (TTL: 24 h)                          |
 * | report            | REPORT#<id>            | REPORT             | PROFILE#<reporter>#REPORTS / <created>#<id> |
 * | reported subject  | REPORTS#<type>#<id>    | SUBJECT            | MODQUEUE#<status> / <rank> (most reported first) |
 * | open report claim | REPORTS#<type>#<id>    | OPEN#<reporter>    |   (one open report per reporter and subject) |
 * | message (by id)   |                        |                    | gsi1: MESSAGE#<id> / MSG#<created>#<id>    |
 * | conversation      | CONV#<profile>         | C#<conversation>   | CONV#<profile>#<box> / <updated>#<conversation> |
 * |                   |                        |                    |   (one per participant; off the index while hidden) |
 * | message settings  | CONV#<profile>         | SETTINGS           |   (allow_messages_from; absent: everyone)  |
 * | notification      | NOTIF#<recipient>      | N#<id>             | NOTIF#<recipient> / <updated>#<id>         |
 * |                   |                        |                    |   (TTL once seen: 90 days after updated)   |
 * | unread count      | NOTIF#<recipient>      | UNREAD             |   (moves with create/seen transitions)     |
 * | notification prefs| NOTIF#<recipient>      | PREFERENCES        |                                            |
 * | notification group| NOTIFGROUP#<recipient>#<reason>#<subject> | GROUP | (grouped reasons' state: per-shard watermarks) |
 * | block             | SAFETY#<blocker>       | BLOCKS#<blocked>   | PROFILE#<blocker>#BLOCKS / <created>#<blocked> |
 * | block (reverse)   | SAFETY#<blocked>       | BLOCKED_BY#<blocker> | (who blocks the profile: same partition) |
 * | mute              | SAFETY#<muter>         | MUTES#<muted>      | PROFILE#<muter>#MUTES / <created>#<muted>  |
 * |                   |                        |                    | gsi2: PROFILE#<muted>#MUTED_BY / <created>#<muter> |
 * | operator link     | OPLINK#<id>            | OPLINK             |                                            |
 * | operator slot     | PROFILE#<agent>        | OPERATOR           |   (while the agent's link is pending or accepted) |
 * | operated agent    | PROFILE#<operator>#AGENTS | <accepted>#<agent> | (while the link is accepted: the agents list) |
 * | agent declaration | PROFILE#<agent>        | AGENT_DECLARATION  |   (skills and homepage for the agent card) |
 * | card signature    | PROFILE#<agent>        | AGENT_CARD_SIGNATURE | (the card's JWS at its last version)     |
 * | oauth client      | OAUTHCLIENT#<client_id> | OAUTHCLIENT       |   (registered by DCR)                      |
 * | oauth code        | OAUTHCODE#<code hash>  | OAUTHCODE          |   (TTL: a day after its 60 s; single use)  |
 * | oauth grant       | OAUTHGRANT#<id>        | GRANT              | WS#<ws>#OAUTHGRANTS / <created>#<id>       |
 * | oauth token       | OAUTHGRANT#<grant_id>  | ACCESS#<id> / REFRESH#<id> | (TTL: after its expiry)            |
 * | account token     | ACCTOKEN#<id>          | ACCTOKEN           |   (mailed, single use; TTL: a day after expiry) |
 * | token slot        | ACCTOKENSLOT#<purpose>#<subject> | SLOT     |   (the one usable token of a purpose)      |
 * | mail              | MAIL#<id>              | MAIL               | MAILTO#<address> / <created>#<id>          |
 * |                   |                        |                    |   (the stream sends it; TTL: 7 days)       |
 * | mail suppression  | MAILSUPPRESS#<email>   | SUPPRESS           |   (bounced or complained: never sent to)   |
 * | live event        | EVENTS#<profile>       | <event id>         |   (the profile's event log, ids in log order; TTL: 7 days) |
 * | stream ticket     | STREAMTICKET#<hash>    | TICKET             |   (60 s, single use: spent by a conditional delete) |
 * | erasure job       | ERASURE#<id>           | ERASURE            | ERASURES#<status> / <scheduled_for>#<id>   |
 * | erasure reach     | ERASURE#<id>           | REACH#<page>       |   (what a page of the first pass reached)  |
 * | tombstone         | PROFILE#<id>           | TOMBSTONE          |   (an erased profile; TTL: 90 days)        |
 * | data export       | EXPORT#<id>            | EXPORT             | USER#<user_id>#EXPORTS / <created>#<id>    |
 * |                   |                        |                    |   (TTL: a day after its download closes)   |
 * | export claim      | USER#<user_id>         | EXPORT_CLAIM       |   (while one export runs: one at a time)   |
 */
const RATE_LIMIT_PREFIX = 'RATELIMIT#';
const FEED_INBOX_PREFIX = 'FEED#';
const FEED_LARGE_AUTHORS_PREFIX = 'FEEDLARGE#';
const FEED_AUTHOR_PREFIX = 'FEEDAUTHOR#';
const NOTIFICATION_PREFIX = 'NOTIF#';
const NOTIFICATION_GROUP_PREFIX = 'NOTIFGROUP#';
const EVENT_LOG_PREFIX = 'EVENTS#';
const CONVERSATION_PREFIX = 'CONV#';

/**
 * How many partition keys one target's likes (a post's, a comment's) and one profile's followers
 * are spread over: each is an item of its own under `...#<shard of the acting profile>`, so no
 * partition key takes more than about 1/32 (3 %) of one target's writes, and a post can take
 * about 32 × 1,000 likes/s before one key's partition is full. It also bounds the stream shards a
 * target's counter is folded from (its watermarks, counter-fold.ts). Never changed for a table
 * that holds data: the shard is part of the key.
 */
export const KEY_SHARDS = 32;

/** FNV-1a (32 bit): a stable, well-spread hash of an id (UUIDs may be time-ordered at the front). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The key shard (0 … KEY_SHARDS − 1) of an item under one target, by the id that makes it one of many (the acting profile's, the quote's). */
export const keyShardOf = (id: string): number => fnv1a(id) % KEY_SHARDS;

const REACTION_SORT_PREFIX = 'REACTION#';
const FOLLOWER_SORT_PREFIX = 'FOLLOWER#';
const QUOTE_SORT_PREFIX = 'QUOTE#';
const OPEN_REPORT_SORT_PREFIX = 'OPEN#';
const ERASURE_REACH_PREFIX = 'REACH#';

export const keys = {
  user: (id: string) => ({ pk: `USER#${id}`, sk: 'USER' }),
  email: (email: string) => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  workspace: (id: string) => ({ pk: `WS#${id}`, sk: 'WS' }),
  membership: (workspaceId: string, userId: string) => ({ pk: `WS#${workspaceId}`, sk: `MEMBER#${userId}` }),
  userWorkspaces: (userId: string) => `USER#${userId}#WORKSPACES`,
  userSessions: (userId: string) => `USER#${userId}#SESSIONS`,
  session: (id: string) => ({ pk: `SESSION#${id}`, sk: 'SESSION' }),
  passkey: (id: string) => ({ pk: `PASSKEY#${id}`, sk: 'PASSKEY' }),
  userPasskeys: (userId: string) => `USER#${userId}#PASSKEYS`,
  passkeyChallenge: (id: string) => ({ pk: `PASSKEYCHALLENGE#${id}`, sk: 'CHALLENGE' }),
  apiKey: (id: string) => ({ pk: `APIKEY#${id}`, sk: 'APIKEY' }),
  workspaceApiKeys: (workspaceId: string) => `WS#${workspaceId}#APIKEYS`,
  profile: (id: string) => ({ pk: `PROFILE#${id}`, sk: 'PROFILE' }),
  workspaceProfiles: (workspaceId: string) => `WS#${workspaceId}#PROFILES`,
  username: (username: string) => ({ pk: `USERNAME#${username}`, sk: 'USERNAME' }),

  post: (id: string) => ({ pk: `POST#${id}`, sk: 'POST' }),
  profilePosts: (profileId: string) => `PROFILE#${profileId}#POSTS`,
  /** A profile's drafts. */
  profileDrafts: (profileId: string) => `PROFILE#${profileId}#DRAFTS`,
  /** The published quotes of a post. */
  postQuotes: (postId: string) => `POST#${postId}#QUOTES`,
  /** The published direct replies of a post. */
  postReplies: (postId: string) => `POST#${postId}#REPLIES`,
  /** A published quote as the quoted post's quotes_count counts it: in the quoted post's key shard of the quote. */
  quoteMark: (quotedId: string, quoteId: string) => ({
    pk: `POST#${quotedId}#QUOTED#${keyShardOf(quoteId)}`,
    sk: `${QUOTE_SORT_PREFIX}${quoteId}`,
  }),
  /** What every quote mark's sort key starts with (the counter fold's stream filter). */
  quoteSortKeyPrefix: QUOTE_SORT_PREFIX,
  /** The profile's like of the post: in the post's key shard of the profile. */
  postReaction: (postId: string, profileId: string) => ({
    pk: `POST#${postId}#REACTIONS#${keyShardOf(profileId)}`,
    sk: `${REACTION_SORT_PREFIX}${profileId}`,
  }),
  comment: (id: string) => ({ pk: `COMMENT#${id}`, sk: 'COMMENT' }),
  postComments: (postId: string) => `POST#${postId}#COMMENTS`,
  /** A profile's comments. */
  profileComments: (profileId: string) => `PROFILE#${profileId}#COMMENTS`,
  /** A profile's likes of posts and comments. */
  profileLikes: (profileId: string) => `PROFILE#${profileId}#LIKES`,
  /** Who mutes a profile. */
  profileMutedBy: (profileId: string) => `PROFILE#${profileId}#MUTED_BY`,
  /** The outbox events of one affected profile. */
  profileEvents: (profileId: string) => `PROFILE#${profileId}#EVENTS`,
  /** A profile's media. */
  profileMedia: (profileId: string) => `PROFILE#${profileId}#MEDIA`,
  /** The mails to one address. */
  mailsTo: (email: string) => `MAILTO#${email}`,
  /** The earlier versions of a post or comment (ids are unique across both). */
  versions: (objectId: string) => `VERSIONS#${objectId}`,
  versionSortKey: (replacedAt: string, id: string) => `V#${timeSortKey(replacedAt, id)}`,
  versionSortKeyPrefix: 'V#',
  commentReaction: (commentId: string, profileId: string) => ({
    pk: `COMMENT#${commentId}#REACTIONS#${keyShardOf(profileId)}`,
    sk: `${REACTION_SORT_PREFIX}${profileId}`,
  }),
  /** What every reaction item's sort key starts with (the counter fold's stream filter). */
  reactionSortKeyPrefix: REACTION_SORT_PREFIX,
  /** The follow: in the followed profile's key shard of the follower. */
  follow: (followerId: string, followedId: string) => ({
    pk: `FOLLOWERS#${followedId}#${keyShardOf(followerId)}`,
    sk: `${FOLLOWER_SORT_PREFIX}${followerId}`,
  }),
  /** What every follow item's sort key starts with (the counter fold's stream filter). */
  followSortKeyPrefix: FOLLOWER_SORT_PREFIX,
  profileFollowers: (profileId: string) => `PROFILE#${profileId}#FOLLOWERS`,
  profileFollowing: (profileId: string) => `PROFILE#${profileId}#FOLLOWING`,
  /** How many follow the profile, folded from the stream. */
  followerCount: (profileId: string) => ({ pk: `PROFILE#${profileId}`, sk: 'FOLLOWER_COUNT' }),
  /** How many the profile follows, moved by its own follows. */
  followingCount: (profileId: string) => ({ pk: `PROFILE#${profileId}`, sk: 'FOLLOWING_COUNT' }),
  conversation: (a: string, b: string) => `CONVERSATION#${a}#${b}`,
  messageSortKey: (createdAt: string, id: string) => `MSG#${createdAt}#${id}`,
  /** What every message's sort key starts with (a conversation's messages, `begins_with`). */
  messageSortKeyPrefix: 'MSG#',
  grant: (id: string) => ({ pk: `GRANT#${id}`, sk: 'GRANT' }),
  profileGrants: (managedId: string) => `PROFILE#${managedId}#GRANTS`,
  /** The grants a profile holds as manager. */
  managerGrants: (managerId: string) => `PROFILE#${managerId}#MANAGES`,
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
  /** The endpoint's failure streak: an item of its own, on no index, so an attempt's health write is one small unit. */
  webhookEndpointHealth: (endpointId: string) => ({ pk: `WHEP#${endpointId}`, sk: 'HEALTH' }),
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
  streamCheckpoint: (consumer: string, shardId: string) => ({
    pk: 'STREAMCHECKPOINT',
    sk: `SHARD#${consumer}#${shardId}`,
  }),
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

  // --- safety: reports and moderation ---
  report: (id: string) => ({ pk: `REPORT#${id}`, sk: 'REPORT' }),
  profileReports: (profileId: string) => `PROFILE#${profileId}#REPORTS`,
  /** A reported subject's partition: its summary and the claims of its open reports. */
  reportedSubjectPartition: (subjectType: string, subjectId: string) => `REPORTS#${subjectType}#${subjectId}`,
  reportedSubject: (subjectType: string, subjectId: string) => ({
    pk: `REPORTS#${subjectType}#${subjectId}`,
    sk: 'SUBJECT',
  }),
  openReportClaim: (subjectType: string, subjectId: string, reporterId: string) => ({
    pk: `REPORTS#${subjectType}#${subjectId}`,
    sk: `${OPEN_REPORT_SORT_PREFIX}${reporterId}`,
  }),
  openReportSortKeyPrefix: OPEN_REPORT_SORT_PREFIX,
  /** The reported subjects of one status, most reported first. */
  moderationQueue: (status: string) => `MODQUEUE#${status}`,
  /** A message found by its id alone (a report names only the id). */
  messageById: (id: string) => `MESSAGE#${id}`,
  // --- conversations: one item per participant ---
  conversationItem: (profileId: string, conversationId: string) => ({
    pk: `${CONVERSATION_PREFIX}${profileId}`,
    sk: `C#${conversationId}`,
  }),
  /** A profile's conversations of one box, by last activity. */
  conversationBox: (profileId: string, box: string) => `${CONVERSATION_PREFIX}${profileId}#${box}`,
  messageSettings: (profileId: string) => ({ pk: `${CONVERSATION_PREFIX}${profileId}`, sk: 'SETTINGS' }),
  // --- notifications ---
  /** A profile's notifications (and its unread count and preferences): one partition per profile. */
  notificationInbox: (recipientId: string) => `${NOTIFICATION_PREFIX}${recipientId}`,
  notification: (recipientId: string, id: string) => ({ pk: `${NOTIFICATION_PREFIX}${recipientId}`, sk: `N#${id}` }),
  notificationUnread: (recipientId: string) => ({ pk: `${NOTIFICATION_PREFIX}${recipientId}`, sk: 'UNREAD' }),
  notificationPreferences: (recipientId: string) => ({
    pk: `${NOTIFICATION_PREFIX}${recipientId}`,
    sk: 'PREFERENCES',
  }),
  /**
   * A grouped reason's state for one subject (the open group, the fold's watermarks): a partition
   * of its own, so a viral post's batches do not write its author's inbox partition twice.
   */
  notificationGroup: (recipientId: string, reason: string, subjectId: string) => ({
    pk: `${NOTIFICATION_GROUP_PREFIX}${recipientId}#${reason}#${subjectId}`,
    sk: 'GROUP',
  }),
  /** What the partition keys of the notifications' items start with (the IAM conditions of the functions that write them). */
  notificationPrefixes: [NOTIFICATION_PREFIX, NOTIFICATION_GROUP_PREFIX] as const,
  // --- safety: blocks and mutes ---
  /** A profile's safety partition: whom it blocks, who blocks it and whom it mutes, read by one Query. */
  safety: (profileId: string) => `SAFETY#${profileId}`,
  block: (blockerId: string, blockedId: string) => ({ pk: `SAFETY#${blockerId}`, sk: `BLOCKS#${blockedId}` }),
  /** The block seen from the blocked side, so that "who blocks me" is in the blocked profile's own partition. */
  blockedBy: (blockedId: string, blockerId: string) => ({ pk: `SAFETY#${blockedId}`, sk: `BLOCKED_BY#${blockerId}` }),
  mute: (muterId: string, mutedId: string) => ({ pk: `SAFETY#${muterId}`, sk: `MUTES#${mutedId}` }),
  // --- operators of agent profiles ---
  operatorLink: (id: string) => ({ pk: `OPLINK#${id}`, sk: 'OPLINK' }),
  /** Beside the profile item, so that a profile read fetches it in the same BatchGetItem. */
  operatorSlot: (agentId: string) => ({ pk: `PROFILE#${agentId}`, sk: 'OPERATOR' }),
  operatedAgents: (operatorId: string) => `PROFILE#${operatorId}#AGENTS`,
  operatorLinksOf: (operatorId: string) => `PROFILE#${operatorId}#OPLINKS`,
  // --- agent cards ---
  /** An agent's declared skills and homepage: beside the profile item, read in the same BatchGetItem. */
  agentDeclaration: (agentId: string) => ({ pk: `PROFILE#${agentId}`, sk: 'AGENT_DECLARATION' }),
  /** The signature of the agent's card as last signed (its version and key): the card is re-signed only when it changes. */
  agentCardSignature: (agentId: string) => ({ pk: `PROFILE#${agentId}`, sk: 'AGENT_CARD_SIGNATURE' }),
  operatedAgent: (operatorId: string, since: string, agentId: string) => ({
    pk: `PROFILE#${operatorId}#AGENTS`,
    sk: timeSortKey(since, agentId),
  }),
  /** A profile's blocks, by when they were made (its list). */
  profileBlocks: (profileId: string) => `PROFILE#${profileId}#BLOCKS`,
  /** A profile's mutes, by when they were made (its list). */
  profileMutes: (profileId: string) => `PROFILE#${profileId}#MUTES`,
  // --- OAuth 2.1 (the service's own authorization server) ---
  oauthClient: (clientId: string) => ({ pk: `OAUTHCLIENT#${clientId}`, sk: 'OAUTHCLIENT' }),
  oauthCode: (codeHash: string) => ({ pk: `OAUTHCODE#${codeHash}`, sk: 'OAUTHCODE' }),
  oauthGrant: (grantId: string) => ({ pk: `OAUTHGRANT#${grantId}`, sk: 'GRANT' }),
  oauthToken: (grantId: string, kind: 'access' | 'refresh', tokenId: string) => ({
    pk: `OAUTHGRANT#${grantId}`,
    sk: `${kind === 'access' ? 'ACCESS' : 'REFRESH'}#${tokenId}`,
  }),
  workspaceOAuthGrants: (workspaceId: string) => `WS#${workspaceId}#OAUTHGRANTS`,
  // --- accounts: mail and its tokens ---
  accountToken: (id: string) => ({ pk: `ACCTOKEN#${id}`, sk: 'ACCTOKEN' }),
  accountTokenSlot: (purpose: string, subject: string) => ({ pk: `ACCTOKENSLOT#${purpose}#${subject}`, sk: 'SLOT' }),
  mail: (id: string) => ({ pk: `MAIL#${id}`, sk: 'MAIL' }),
  mailSuppression: (email: string) => ({ pk: `MAILSUPPRESS#${email}`, sk: 'SUPPRESS' }),
  // --- erasure ---
  erasureJob: (id: string) => ({ pk: `ERASURE#${id}`, sk: 'ERASURE' }),
  erasureJobPartition: (id: string) => `ERASURE#${id}`,
  erasureReach: (jobId: string, page: string) => ({ pk: `ERASURE#${jobId}`, sk: `${ERASURE_REACH_PREFIX}${page}` }),
  erasureReachPrefix: ERASURE_REACH_PREFIX,
  erasureJobsOfStatus: (status: string) => `ERASURES#${status}`,
  tombstone: (profileId: string) => ({ pk: `PROFILE#${profileId}`, sk: 'TOMBSTONE' }),
  // --- the audit log ---
  /** A workspace's audit entries of one UTC day (YYYY-MM-DD). */
  auditDay: (workspaceId: string, day: string) => `AUDIT#${workspaceId}#${day}`,
  auditEntry: (workspaceId: string, day: string, at: string, entryId: string) => ({
    pk: `AUDIT#${workspaceId}#${day}`,
    sk: `${at}#${entryId}`,
  }),
  auditMark: (entryId: string) => ({ pk: `AUDITMARK#${entryId}`, sk: 'AUDITMARK' }),
  // --- data exports ---
  dataExport: (id: string) => ({ pk: `EXPORT#${id}`, sk: 'EXPORT' }),
  userExports: (userId: string) => `USER#${userId}#EXPORTS`,
  /** The exports whose job has not settled them yet. */
  pendingExports: () => 'EXPORTS#pending',
  exportClaim: (userId: string) => ({ pk: `USER#${userId}`, sk: 'EXPORT_CLAIM' }),
  // --- live: the per-profile event log and its stream tickets ---
  /** A profile's event log: one partition, sorted by event id (log order). */
  eventLog: (profileId: string) => `${EVENT_LOG_PREFIX}${profileId}`,
  liveEvent: (profileId: string, eventId: string) => ({ pk: `${EVENT_LOG_PREFIX}${profileId}`, sk: eventId }),
  streamTicket: (ticketHash: string) => ({ pk: `STREAMTICKET#${ticketHash}`, sk: 'TICKET' }),
};

/**
 * What a write to the item at `key` audits as its target (API.md: a like's target is the post, a
 * follow's the followed profile, a block's the blocked profile), or undefined for items that are
 * no write's subject: counters, claims, outbox events, inboxes, versions, the middlewares' items.
 */
export function auditTargetOfKey(key: { pk?: unknown; sk?: unknown }): { type: string; id: string } | undefined {
  if (typeof key.pk !== 'string' || typeof key.sk !== 'string') return undefined;
  const [kind, id, part] = key.pk.split('#');
  const { sk } = key;
  if (id === undefined) return undefined;
  const target = (type: string, targetId = id) => ({ type, id: targetId });
  switch (kind) {
    case 'POST':
      return sk === 'POST' || part === 'REACTIONS' ? target('post') : undefined;
    case 'COMMENT':
      return sk === 'COMMENT' || part === 'REACTIONS' ? target('comment') : undefined;
    case 'PROFILE':
      return sk === 'PROFILE' && part === undefined ? target('profile') : undefined;
    case 'FOLLOWERS':
      return target('profile');
    case 'SAFETY':
      return sk.startsWith('BLOCKS#') || sk.startsWith('MUTES#') ? target('profile', sk.split('#')[1]) : undefined;
    case 'CONVERSATION':
      return sk.startsWith('MSG#') ? target('message', sk.split('#')[2]) : undefined;
    case 'CONV':
      return part !== undefined
        ? undefined
        : sk === 'SETTINGS'
          ? target('message_settings')
          : sk.startsWith('C#')
            ? target('conversation', sk.slice(2))
            : undefined;
    case 'NOTIF':
      return sk === 'PREFERENCES' ? target('notification_preferences') : target('notifications');
    case 'WS':
      return sk === 'WS' ? target('workspace') : sk.startsWith('MEMBER#') ? target('member', sk.slice(7)) : undefined;
    case 'OAUTHGRANT':
      return sk === 'GRANT' ? target('oauth_grant') : undefined;
    default: {
      const type = SINGLE_ITEM_TARGETS[kind as keyof typeof SINGLE_ITEM_TARGETS];
      return type && part === undefined ? target(type) : undefined;
    }
  }
}

/** Entities whose item is `<KIND>#<id>`: the item is the target. */
const SINGLE_ITEM_TARGETS = {
  APIKEY: 'api_key',
  WHEP: 'webhook_endpoint',
  WHDL: 'webhook_delivery',
  GRANT: 'access_grant',
  OPLINK: 'operator_link',
  REPORT: 'report',
  MEDIA: 'media',
  USER: 'user',
  SESSION: 'session',
  PASSKEY: 'passkey',
} as const;

/**
 * The `entity` attribute of each kind of item: what a stream consumer, its event source filter
 * (infra) and `recordOf` tell items apart by.
 */
export const entityTags = {
  user: 'user',
  email: 'email',
  workspace: 'workspace',
  auditEntry: 'audit_entry',
  auditMark: 'audit_mark',
  membership: 'membership',
  session: 'session',
  passkey: 'passkey',
  passkeyChallenge: 'passkey_challenge',
  apiKey: 'api_key',
  profile: 'profile',
  username: 'username',
  post: 'post',
  comment: 'comment',
  version: 'version',
  follow: 'follow',
  followerCount: 'follower_count',
  followingCount: 'following_count',
  quoteMark: 'quote_mark',
  message: 'message',
  conversation: 'conversation',
  messageSettings: 'message_settings',
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
  webhookEndpointHealth: 'webhook_endpoint_health',
  media: 'media',
  postImageClaim: 'post_image_claim',
  streamCheckpoint: 'stream_checkpoint',
  feedEntry: 'feed_entry',
  feedLargeAuthors: 'feed_large_authors',
  feedAuthorMode: 'feed_author_mode',
  report: 'report',
  reportedSubject: 'reported_subject',
  openReportClaim: 'open_report_claim',
  notification: 'notification',
  notificationUnread: 'notification_unread',
  notificationPreferences: 'notification_preferences',
  notificationGroup: 'notification_group',
  block: 'block',
  blockedBy: 'blocked_by',
  mute: 'mute',
  operatorLink: 'operator_link',
  operatorSlot: 'operator_slot',
  operatedAgent: 'operated_agent',
  agentDeclaration: 'agent_declaration',
  agentCardSignature: 'agent_card_signature',
  oauthClient: 'oauth_client',
  oauthCode: 'oauth_code',
  oauthGrant: 'oauth_grant',
  oauthToken: 'oauth_token',
  accountToken: 'account_token',
  accountTokenSlot: 'account_token_slot',
  mail: 'mail',
  mailSuppression: 'mail_suppression',
  liveEvent: 'live_event',
  streamTicket: 'stream_ticket',
  erasureJob: 'erasure_job',
  erasureReach: 'erasure_reach',
  tombstone: 'tombstone',
  dataExport: 'data_export',
  exportClaim: 'export_claim',
} as const;

/** What a reaction item's key says, for a stream record that carries only the key (a removal). */
export type ReactionKeyParts = { target: 'post' | 'comment'; targetId: string; profileId: string };
/** What a follow item's key says. */
export type FollowKeyParts = { followerId: string; followedId: string };
/** What a quote mark's key says. */
export type QuoteKeyParts = { quotedId: string; quoteId: string };

const REACTION_PARTITION = /^(POST|COMMENT)#([^#]+)#REACTIONS#\d+$/;
const FOLLOW_PARTITION = /^FOLLOWERS#([^#]+)#\d+$/;
const QUOTE_PARTITION = /^POST#([^#]+)#QUOTED#\d+$/;

/** The keys above read back: a stream record's `Keys` → what they name (undefined: another kind of item). */
export const keyParts = {
  reaction: ({ pk, sk }: { pk: string; sk: string }): ReactionKeyParts | undefined => {
    const match = REACTION_PARTITION.exec(pk);
    if (!match || !sk.startsWith(REACTION_SORT_PREFIX)) return undefined;
    return {
      target: match[1] === 'POST' ? 'post' : 'comment',
      targetId: match[2]!,
      profileId: sk.slice(REACTION_SORT_PREFIX.length),
    };
  },
  follow: ({ pk, sk }: { pk: string; sk: string }): FollowKeyParts | undefined => {
    const match = FOLLOW_PARTITION.exec(pk);
    if (!match || !sk.startsWith(FOLLOWER_SORT_PREFIX)) return undefined;
    return { followedId: match[1]!, followerId: sk.slice(FOLLOWER_SORT_PREFIX.length) };
  },
  quote: ({ pk, sk }: { pk: string; sk: string }): QuoteKeyParts | undefined => {
    const match = QUOTE_PARTITION.exec(pk);
    if (!match || !sk.startsWith(QUOTE_SORT_PREFIX)) return undefined;
    return { quotedId: match[1]!, quoteId: sk.slice(QUOTE_SORT_PREFIX.length) };
  },
};

/** A sort key that orders by time and stays unique: `<iso timestamp>#<id>`. */
export const timeSortKey = (iso: string, id: string) => `${iso}#${id}`;
