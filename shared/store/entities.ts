/**
 * Every entity's place in the table, declared once from the key layout in keys.ts: its tag, key,
 * index attributes and TTL. Claims and reactions, whose key is not in the record, take it as an
 * argument. Stores write items with `itemOf`/`putItem` and read them back with
 * `recordOf`/`getItem` through these declarations.
 */
import type {
  ApiKeyRecord,
  MembershipRecord,
  ProfileRecord,
  SessionRecord,
  UserRecord,
  WorkspaceRecord,
} from '../domain/entities.js';
import type { OutboxEvent } from '../domain/events.js';
import { FEED_ENTRY_DAYS, type FeedEntry } from '../domain/feed.js';
import type { GrantAccessRecord, GrantRecord } from '../domain/grants.js';
import type { CommentRecord, PostRecord, ReactionRecord } from '../domain/posts.js';
import { conversationPair, type FollowRecord, type MessageRecord } from '../domain/social.js';
import type { AttemptRecord, DeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks.js';
import { MEDIA_UNATTACHED_TTL_SECONDS, type MediaRecord } from '../domain/media.js';
import { config } from '../config.js';
import type { ItemKey } from './batch.js';
import { entityLayout } from './items.js';
import { entityTags, keys, timeSortKey } from './keys.js';

const epochSeconds = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

/** Outbox items are kept at least 30 days. */
const OUTBOX_TTL_SECONDS = 30 * 86_400;

/**
 * When an event item may expire, counted from its creation or from a restart of one of its
 * deliveries: the sender reads the body from it on every attempt, so it outlives every delivery of
 * the event that can still be attempted: the whole retry schedule, then a delivery's retention
 * (a failed delivery can be retried by hand until it expires), and a day for the clocks. A manual
 * retry or a recovery pushes it forward again (`extendEventExpiry`).
 */
export const eventExpiresAt = (fromIso: string) => {
  const retrySpan = config.webhookRetryDelays.reduce((sum, seconds) => sum + seconds, 0);
  return epochSeconds(fromIso) + Math.max(OUTBOX_TTL_SECONDS, retrySpan + (config.webhookRetentionDays + 1) * 86_400);
};

/**
 * Where a delivery sits in the second index: while pending/delivering in the sweeper's due-time
 * shards (`due`), while failed in its endpoint's failed list (recovery, the failed filter), and
 * nowhere once succeeded. One index serves both because a delivery is never in both states.
 */
export type DeliverySlot = { due: string } | { failedOf: string } | null;

/** Index attributes of a delivery: activity by updated_at, and its slot in the second index. */
export function deliveryIndexes(d: Pick<DeliveryRecord, 'id' | 'workspace_id' | 'updated_at'>, slot: DeliverySlot) {
  return {
    gsi1pk: keys.workspaceWebhookDeliveries(d.workspace_id),
    gsi1sk: timeSortKey(d.updated_at, d.id),
    ...(slot && 'due' in slot ? { gsi2pk: keys.webhookDueShard(d.id), gsi2sk: timeSortKey(slot.due, d.id) } : {}),
    ...(slot && 'failedOf' in slot
      ? { gsi2pk: keys.endpointFailedDeliveries(slot.failedOf), gsi2sk: timeSortKey(d.updated_at, d.id) }
      : {}),
  };
}

/** A delivery as stored: its record and its latest attempt (store/webhook-deliveries.ts). */
export type StoredDelivery = DeliveryRecord & { last_attempt?: AttemptRecord | null };

/** The slot a delivery record belongs in, from its status. */
export const deliverySlotOf = (
  d: Pick<DeliveryRecord, 'status' | 'next_attempt_at' | 'claimed_at' | 'webhook_endpoint_id'>,
): DeliverySlot =>
  d.status === 'failed'
    ? { failedOf: d.webhook_endpoint_id }
    : d.status === 'succeeded'
      ? null
      : { due: d.next_attempt_at ?? d.claimed_at ?? '' };

/** Deliveries and their attempts expire this long after their last change (DynamoDB TTL). */
export const deliveryExpiresAt = (updatedAt: string) => epochSeconds(updatedAt) + config.webhookRetentionDays * 86_400;

/**
 * The index keys of a post: in its author's list and, for a quote, in the quoted post's list of
 * quotes; listed only while published.
 */
export const postListing = (
  post: Pick<PostRecord, 'id' | 'profile_id' | 'status' | 'published_at' | 'quoted_post_id'>,
) => {
  if (post.status !== 'published' || !post.published_at) return {};
  const sortKey = timeSortKey(post.published_at, post.id);
  return {
    gsi1pk: keys.profilePosts(post.profile_id),
    gsi1sk: sortKey,
    ...(post.quoted_post_id ? { gsi2pk: keys.postQuotes(post.quoted_post_id), gsi2sk: sortKey } : {}),
  };
};

/** The claim of a post on a media it shows as an image. */
export interface PostImageClaim {
  media_id: string;
  post_id: string;
}

/** An author whose posts are merged into feeds at read time (see store/feed.ts). */
export interface FeedAuthorModeRecord {
  author_id: string;
  since: string;
}

/** The credential kept on a user's email claim. */
export interface EmailCredential {
  user_id: string;
  password_hash: string;
}

/** A published quote's mark: which post it quotes, which post it is, who wrote it. */
export interface QuoteMarkRecord {
  quoted_post_id: string;
  quote_post_id: string;
  profile_id: string;
}

export const entities = {
  user: entityLayout<UserRecord>({ entity: entityTags.user, key: (u) => keys.user(u.id) }),
  /** The unique claim on an email address, holding the credential. */
  email: (email: string) => entityLayout<EmailCredential>({ entity: entityTags.email, key: () => keys.email(email) }),
  workspace: entityLayout<WorkspaceRecord>({ entity: entityTags.workspace, key: (w) => keys.workspace(w.id) }),
  membership: entityLayout<MembershipRecord>({
    entity: entityTags.membership,
    key: (m) => keys.membership(m.workspace_id, m.user_id),
    indexes: (m) => ({ gsi1pk: keys.userWorkspaces(m.user_id), gsi1sk: timeSortKey(m.created_at, m.workspace_id) }),
  }),
  session: entityLayout<SessionRecord>({
    entity: entityTags.session,
    key: (s) => keys.session(s.id),
    // A user's sessions, so that a password change or "log out everywhere" can end them.
    indexes: (s) => ({ gsi1pk: keys.userSessions(s.user_id), gsi1sk: timeSortKey(s.created_at, s.id) }),
    // DynamoDB's TTL removes it some time after expiry; reads still check expires_at.
    expiresAt: (s) => epochSeconds(s.expires_at),
  }),
  apiKey: entityLayout<ApiKeyRecord>({
    entity: entityTags.apiKey,
    key: (k) => keys.apiKey(k.id),
    indexes: (k) => ({ gsi1pk: keys.workspaceApiKeys(k.workspace_id), gsi1sk: timeSortKey(k.created_at, k.id) }),
  }),
  profile: entityLayout<ProfileRecord>({
    entity: entityTags.profile,
    key: (p) => keys.profile(p.id),
    indexes: (p) => ({ gsi1pk: keys.workspaceProfiles(p.workspace_id), gsi1sk: timeSortKey(p.created_at, p.id) }),
  }),
  /** The unique claim on a username (lowercase). */
  username: (username: string) =>
    entityLayout<{ profile_id: string }>({ entity: entityTags.username, key: () => keys.username(username) }),
  post: entityLayout<PostRecord>({ entity: entityTags.post, key: (p) => keys.post(p.id), indexes: postListing }),
  comment: entityLayout<CommentRecord>({
    entity: entityTags.comment,
    key: (c) => keys.comment(c.id),
    indexes: (c) => ({ gsi1pk: keys.postComments(c.post_id), gsi1sk: timeSortKey(c.created_at, c.id) }),
  }),
  follow: entityLayout<FollowRecord>({
    entity: entityTags.follow,
    key: (f) => keys.follow(f.follower_profile_id, f.followed_profile_id),
    indexes: (f) => ({
      gsi1pk: keys.profileFollowers(f.followed_profile_id),
      gsi1sk: timeSortKey(f.created_at, f.follower_profile_id),
      gsi2pk: keys.profileFollowing(f.follower_profile_id),
      gsi2sk: timeSortKey(f.created_at, f.followed_profile_id),
    }),
  }),
  message: entityLayout<MessageRecord>({
    entity: entityTags.message,
    key: (m) => ({
      pk: keys.conversation(...conversationPair(m.sender_profile_id, m.recipient_profile_id)),
      sk: keys.messageSortKey(m.created_at, m.id),
    }),
  }),
  grant: entityLayout<GrantRecord>({
    entity: entityTags.grant,
    key: (g) => keys.grant(g.id),
    indexes: (g) => ({ gsi1pk: keys.profileGrants(g.profile_id), gsi1sk: timeSortKey(g.created_at, g.id) }),
  }),
  grantAccess: entityLayout<GrantAccessRecord>({
    entity: entityTags.grantAccess,
    key: (a) => keys.grantAccess(a.managed_profile_id, a.manager_profile_id),
  }),
  event: entityLayout<OutboxEvent>({
    entity: entityTags.event,
    key: (e) => keys.event(e.id),
    expiresAt: (e) => eventExpiresAt(e.created_at),
  }),
  /** A published quote, counted into the quoted post's quotes_count (store/posts.ts). */
  quoteMark: entityLayout<QuoteMarkRecord>({
    entity: entityTags.quoteMark,
    key: (m) => keys.quoteMark(m.quoted_post_id, m.quote_post_id),
  }),
  /** A like on a post or comment: the key names the target and the profile. */
  reaction: (key: ItemKey) => entityLayout<ReactionRecord>({ entity: entityTags.reaction, key: () => key }),
  /** One post in one reader's inbox (the key names the reader); gone with its post's 30 days. */
  feedEntry: (readerId: string) =>
    entityLayout<FeedEntry>({
      entity: entityTags.feedEntry,
      key: (e) => keys.feedEntry(readerId, e.published_at, e.post_id),
      expiresAt: (e) => epochSeconds(e.published_at) + FEED_ENTRY_DAYS * 86_400,
    }),
  feedAuthorMode: entityLayout<FeedAuthorModeRecord>({
    entity: entityTags.feedAuthorMode,
    key: (m) => keys.feedAuthorMode(m.author_id),
  }),
  media: entityLayout<MediaRecord>({
    entity: entityTags.media,
    key: (m) => keys.media(m.id),
    // As created: never attached. Attaching removes the expiry, a replacement sets it again
    // (store/media.ts); its REMOVE by TTL is what deletes the files.
    expiresAt: (m) => epochSeconds(m.created_at) + MEDIA_UNATTACHED_TTL_SECONDS,
  }),
  /** Which post shows a media as an image: a media is on one post at a time (its removal releases the media). */
  postImageClaim: entityLayout<PostImageClaim>({
    entity: entityTags.postImageClaim,
    key: (c) => keys.postImageClaim(c.media_id),
  }),
  webhookEndpoint: entityLayout<WebhookEndpointRecord>({
    entity: entityTags.webhookEndpoint,
    key: (e) => keys.webhookEndpoint(e.id),
    indexes: (e) => ({
      gsi1pk: keys.workspaceWebhookEndpoints(e.workspace_id),
      gsi1sk: timeSortKey(e.created_at, e.id),
    }),
  }),
  webhookDelivery: entityLayout<StoredDelivery>({
    entity: entityTags.webhookDelivery,
    key: (d) => keys.webhookDelivery(d.id),
    indexes: (d) => deliveryIndexes(d, deliverySlotOf(d)),
    expiresAt: (d) => deliveryExpiresAt(d.updated_at),
  }),
  webhookAttempt: entityLayout<AttemptRecord>({
    entity: entityTags.webhookAttempt,
    key: (a) => keys.webhookAttempt(a.delivery_id, a.number),
    expiresAt: (a) => deliveryExpiresAt(a.started_at),
  }),
};
