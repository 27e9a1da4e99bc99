/**
 * Every entity's place in the table, declared once from the key layout in keys.ts: its tag, key,
 * named access paths (the index attributes of its items follow from them) and TTL. Claims and reactions, whose key is not in the record, take it as an
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
import type { PasskeyChallengeRecord, PasskeyRecord } from '../domain/passkeys.js';
import { FEED_ENTRY_DAYS, type FeedEntryRecord } from '../domain/feed.js';
import type { GrantAccessRecord, GrantRecord } from '../domain/grants.js';
import type { CommentRecord, PostRecord, ReactionRecord, VersionRecord } from '../domain/posts.js';
import { conversationPair, type FollowRecord, type MessageRecord } from '../domain/social.js';
import type { ConversationRecord, MessageSettingsRecord } from '../domain/conversations.js';
import type { AttemptRecord, DeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks.js';
import { MEDIA_UNATTACHED_TTL_SECONDS, type MediaRecord } from '../domain/media.js';
import { epochSeconds } from './epoch.js';
import { queueRank, type ReportedSubjectRecord, type ReportRecord, type ReportSubject } from '../domain/reports.js';
import type { BlockRecord, MuteRecord } from '../domain/safety.js';
import type { OperatedAgentRecord, OperatorLinkRecord, OperatorSlotRecord } from '../domain/operators.js';
import type { AgentCardSignatureRecord, AgentDeclarationRecord } from '../domain/agent-cards.js';
import type { OAuthClientRecord, OAuthCodeRecord, OAuthGrantRecord, OAuthTokenRecord } from '../domain/oauth.js';
import { config } from '../config.js';
import type { ItemKey } from './batch.js';
import { entityLayout, pathAttributes } from './items.js';
import { entityTags, keys, timeSortKey } from './keys.js';
import {
  notificationExpiresAt,
  type GroupStateRecord,
  type PreferencesRecord,
  type StoredNotification,
  type UnreadRecord,
} from './notification-entities.js';
import type { NotificationRecord } from '../domain/notifications.js';
import type { AccountTokenRecord, TokenSlot } from '../domain/account-tokens.js';
import { MAIL_RETENTION_SECONDS, type MailRecord } from '../domain/mail.js';
import { EVENT_LOG_DAYS, type LiveEvent } from '../domain/live-events.js';
import type { StreamTicketRecord } from '../domain/stream-tickets.js';
import { TOMBSTONE_DAYS, type ErasureJobRecord } from '../domain/erasure.js';
import { EXPORT_CLAIM_SECONDS, EXPORT_DOWNLOAD_SECONDS, type ExportRecord } from '../domain/exports.js';

/** A logged event with the change it came from (what a replay of that change finds). */
export type LoggedEvent = LiveEvent & { source: string };

const conversationOf = (m: Pick<MessageRecord, 'sender_profile_id' | 'recipient_profile_id'>) =>
  keys.conversation(...conversationPair(m.sender_profile_id, m.recipient_profile_id));

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

/** What a delivery's access paths read of it: its place follows from its status. */
type DeliveryPlacement = Pick<
  DeliveryRecord,
  'id' | 'workspace_id' | 'updated_at' | 'status' | 'next_attempt_at' | 'claimed_at' | 'webhook_endpoint_id'
>;

/** Index attributes of a delivery: activity by updated_at, and its slot in the second index. */
export function deliveryIndexes(d: Pick<DeliveryRecord, 'id' | 'workspace_id' | 'updated_at'>, slot: DeliverySlot) {
  // The fields of a record whose slot (deliverySlotOf) is `slot`: its paths place it there.
  const placement: DeliveryPlacement = {
    ...d,
    status: slot === null ? 'succeeded' : 'due' in slot ? 'pending' : 'failed',
    next_attempt_at: slot && 'due' in slot ? slot.due : null,
    claimed_at: null,
    webhook_endpoint_id: slot && 'failedOf' in slot ? slot.failedOf : '',
  };
  return pathAttributes(entities.webhookDelivery.paths, placement);
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

/** A post's place in its lists (its author's, the quoted post's quotes, the parent's replies): only while published, by publication time. */
const listedAt = (post: Pick<PostRecord, 'id' | 'status' | 'published_at'>) =>
  post.status === 'published' && post.published_at ? timeSortKey(post.published_at, post.id) : undefined;

/** A reported subject as stored: `version` guards its read-modify-write (every change bumps it). */
export type StoredReportedSubject = ReportedSubjectRecord & { version: number };

/** The claim of the reporter's open report of a subject. */
export interface OpenReportClaim extends ReportSubject {
  reporter_profile_id: string;
  report_id: string;
}

/** The user's one running export. */
export interface ExportClaimRecord {
  user_id: string;
  export_id: string;
  created_at: string;
}

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

/** A token slot as stored: the token that holds it, and until when that token lives. */
export interface TokenSlotRecord extends TokenSlot {
  token_id: string;
  expires_at: string;
}

/** An address mail is no longer sent to, and why (SES's notification type). */
export interface MailSuppressionRecord {
  email: string;
  reason: 'bounce' | 'complaint';
  at: string;
}

/** What stays of an erased profile: its username, kept from being taken for TOMBSTONE_DAYS. */
export interface TombstoneRecord {
  id: string;
  username: string;
  deleted_at: string;
}

/** What a page of an erasure's first pass reached: the profiles it met and the keys it derived. */
export interface ErasureReachRecord {
  job_id: string;
  page: string;
  profile_ids: string[];
  keys: ItemKey[];
}

/** A published quote's mark: which post it quotes, which post it is, who wrote it. */
export interface QuoteMarkRecord {
  quoted_post_id: string;
  quote_post_id: string;
  profile_id: string;
}

export const entities = {
  user: entityLayout<UserRecord>()({ entity: entityTags.user, key: (u) => keys.user(u.id) }),
  /** The unique claim on an email address, holding the credential. */
  email: (email: string) => entityLayout<EmailCredential>()({ entity: entityTags.email, key: () => keys.email(email) }),
  workspace: entityLayout<WorkspaceRecord>()({ entity: entityTags.workspace, key: (w) => keys.workspace(w.id) }),
  membership: entityLayout<MembershipRecord>()({
    entity: entityTags.membership,
    key: (m) => keys.membership(m.workspace_id, m.user_id),
    paths: {
      /** A user's workspaces, by when they joined. */
      byUser: {
        index: 'gsi1',
        partition: (m: Pick<MembershipRecord, 'user_id'>) => keys.userWorkspaces(m.user_id),
        sort: (m) => timeSortKey(m.created_at, m.workspace_id),
      },
    },
  }),
  session: entityLayout<SessionRecord>()({
    entity: entityTags.session,
    key: (s) => keys.session(s.id),
    paths: {
      /** A user's sessions, so that a password change or "log out everywhere" can end them. */
      byUser: {
        index: 'gsi1',
        partition: (s: Pick<SessionRecord, 'user_id'>) => keys.userSessions(s.user_id),
        sort: (s) => timeSortKey(s.created_at, s.id),
      },
    },
    // DynamoDB's TTL removes it some time after expiry; reads still check expires_at.
    expiresAt: (s) => epochSeconds(s.expires_at),
  }),
  /**
   * A passkey. Its id is derived from its credential ID (passkeyIdOf), so the key is the lookup by
   * credential ID a sign-in needs: one strongly consistent GetItem, no index.
   */
  passkey: entityLayout<PasskeyRecord>()({
    entity: entityTags.passkey,
    key: (p) => keys.passkey(p.id),
    paths: {
      /** A user's passkeys, by when they were added (the Security page, the registration's exclusions). */
      byUser: {
        index: 'gsi1',
        partition: (p: Pick<PasskeyRecord, 'user_id'>) => keys.userPasskeys(p.user_id),
        sort: (p) => timeSortKey(p.created_at, p.id),
      },
    },
  }),
  /** A ceremony's challenge: taken (deleted) by the response that answers it. */
  passkeyChallenge: entityLayout<PasskeyChallengeRecord>()({
    entity: entityTags.passkeyChallenge,
    key: (c) => keys.passkeyChallenge(c.id),
    expiresAt: (c) => epochSeconds(c.expires_at),
  }),
  apiKey: entityLayout<ApiKeyRecord>()({
    entity: entityTags.apiKey,
    key: (k) => keys.apiKey(k.id),
    paths: {
      byWorkspace: {
        index: 'gsi1',
        partition: (k: Pick<ApiKeyRecord, 'workspace_id'>) => keys.workspaceApiKeys(k.workspace_id),
        sort: (k) => timeSortKey(k.created_at, k.id),
      },
    },
  }),
  profile: entityLayout<ProfileRecord>()({
    entity: entityTags.profile,
    key: (p) => keys.profile(p.id),
    paths: {
      byWorkspace: {
        index: 'gsi1',
        partition: (p: Pick<ProfileRecord, 'workspace_id'>) => keys.workspaceProfiles(p.workspace_id),
        sort: (p) => timeSortKey(p.created_at, p.id),
      },
    },
  }),
  /** The unique claim on a username (lowercase). */
  username: (username: string) =>
    entityLayout<{ profile_id: string }>()({ entity: entityTags.username, key: () => keys.username(username) }),
  post: entityLayout<PostRecord>()({
    entity: entityTags.post,
    key: (p) => keys.post(p.id),
    paths: {
      /** A profile's published posts. */
      byAuthor: {
        index: 'gsi1',
        partition: (p: Pick<PostRecord, 'profile_id'>) => keys.profilePosts(p.profile_id),
        sort: listedAt,
      },
      /** A profile's drafts (never on byAuthor: a post is on one of the two), for its own export. */
      draftsOf: {
        index: 'gsi1',
        partition: (p: Pick<PostRecord, 'profile_id'>) => keys.profileDrafts(p.profile_id),
        sort: (p) => (p.status === 'draft' ? timeSortKey(p.created_at, p.id) : undefined),
      },
      /** A post's published quotes. */
      quotesOf: {
        index: 'gsi2',
        partition: (p: { quoted_post_id: string }) => keys.postQuotes(p.quoted_post_id),
        params: (p) => (p.quoted_post_id ? { quoted_post_id: p.quoted_post_id } : undefined),
        sort: listedAt,
      },
      /** A post's published direct replies (a reply never quotes, so it shares the quotes' index). */
      repliesOf: {
        index: 'gsi2',
        partition: (p: { reply_to_post_id: string }) => keys.postReplies(p.reply_to_post_id),
        params: (p) => (p.reply_to_post_id ? { reply_to_post_id: p.reply_to_post_id } : undefined),
        sort: listedAt,
      },
    },
  }),
  comment: entityLayout<CommentRecord>()({
    entity: entityTags.comment,
    key: (c) => keys.comment(c.id),
    paths: {
      /** A post's comments and their replies. */
      byPost: {
        index: 'gsi1',
        partition: (c: Pick<CommentRecord, 'post_id'>) => keys.postComments(c.post_id),
        sort: (c) => timeSortKey(c.created_at, c.id),
      },
      /** A profile's comments, every status (its export; one more index write per comment write). */
      byAuthor: {
        index: 'gsi2',
        partition: (c: Pick<CommentRecord, 'profile_id'>) => keys.profileComments(c.profile_id),
        sort: (c) => timeSortKey(c.created_at, c.id),
      },
    },
  }),
  version: entityLayout<VersionRecord>()({
    entity: entityTags.version,
    key: (v) => ({ pk: keys.versions(v.object_id), sk: keys.versionSortKey(v.replaced_at, v.id) }),
    paths: {
      /** A post's or comment's earlier versions. */
      ofObject: {
        partition: (v: Pick<VersionRecord, 'object_id'>) => keys.versions(v.object_id),
        sortPrefix: keys.versionSortKeyPrefix,
      },
    },
  }),
  follow: entityLayout<FollowRecord>()({
    entity: entityTags.follow,
    key: (f) => keys.follow(f.follower_profile_id, f.followed_profile_id),
    paths: {
      /** Who follows a profile. */
      followersOf: {
        index: 'gsi1',
        partition: (f: Pick<FollowRecord, 'followed_profile_id'>) => keys.profileFollowers(f.followed_profile_id),
        sort: (f) => timeSortKey(f.created_at, f.follower_profile_id),
      },
      /** Whom a profile follows. */
      followedBy: {
        index: 'gsi2',
        partition: (f: Pick<FollowRecord, 'follower_profile_id'>) => keys.profileFollowing(f.follower_profile_id),
        sort: (f) => timeSortKey(f.created_at, f.followed_profile_id),
      },
    },
  }),
  message: entityLayout<MessageRecord>()({
    entity: entityTags.message,
    key: (m) => ({ pk: conversationOf(m), sk: keys.messageSortKey(m.created_at, m.id) }),
    paths: {
      /** The messages between two profiles, both directions. */
      conversation: { partition: conversationOf, sortPrefix: keys.messageSortKeyPrefix },
      /** One message by its id (a report of it). */
      byId: {
        index: 'gsi1',
        partition: (m: Pick<MessageRecord, 'id'>) => keys.messageById(m.id),
        sort: (m) => keys.messageSortKey(m.created_at, m.id),
      },
    },
  }),
  /** One participant's conversation (domain/conversations.ts): listed by box and last activity while not hidden. */
  conversation: entityLayout<ConversationRecord>()({
    entity: entityTags.conversation,
    key: (c) => keys.conversationItem(c.profile_id, c.id),
    paths: {
      /** A profile's conversations of one box, by last activity. */
      byBox: {
        index: 'gsi1',
        partition: (c: Pick<ConversationRecord, 'profile_id' | 'box'>) => keys.conversationBox(c.profile_id, c.box),
        sort: (c: Pick<ConversationRecord, 'hidden' | 'updated_at' | 'id'>) =>
          c.hidden ? undefined : timeSortKey(c.updated_at, c.id),
      },
    },
  }),
  messageSettings: entityLayout<MessageSettingsRecord>()({
    entity: entityTags.messageSettings,
    key: (m) => keys.messageSettings(m.profile_id),
  }),
  grant: entityLayout<GrantRecord>()({
    entity: entityTags.grant,
    key: (g) => keys.grant(g.id),
    paths: {
      /** The grants over a managed profile. */
      byProfile: {
        index: 'gsi1',
        partition: (g: Pick<GrantRecord, 'profile_id'>) => keys.profileGrants(g.profile_id),
        sort: (g) => timeSortKey(g.created_at, g.id),
      },
      /** The grants a profile holds as manager: its erasure's path to them (one index write per grant write). */
      byManager: {
        index: 'gsi2',
        partition: (g: Pick<GrantRecord, 'manager_profile_id'>) => keys.managerGrants(g.manager_profile_id),
        sort: (g) => timeSortKey(g.created_at, g.id),
      },
    },
  }),
  grantAccess: entityLayout<GrantAccessRecord>()({
    entity: entityTags.grantAccess,
    key: (a) => keys.grantAccess(a.managed_profile_id, a.manager_profile_id),
    paths: {
      /** The accepted grants over a managed profile: its managers. */
      managersOf: {
        partition: (a: Pick<GrantAccessRecord, 'managed_profile_id'>) => keys.grantManagers(a.managed_profile_id),
      },
    },
  }),
  event: entityLayout<OutboxEvent>()({
    entity: entityTags.event,
    key: (e) => keys.event(e.id),
    paths: {
      /**
       * The events of one affected profile (not operational ones): the erasure's path to the stored
       * payloads that carry a profile's data, its own and those of the profiles it acted on (one
       * index write per event).
       */
      byProfile: {
        index: 'gsi1',
        partition: (e: { profile_id: string }) => keys.profileEvents(e.profile_id),
        params: (e: OutboxEvent) => (e.profile_id === null ? undefined : { profile_id: e.profile_id }),
        sort: (e) => timeSortKey(e.created_at, e.id),
      },
    },
    expiresAt: (e) => eventExpiresAt(e.created_at),
  }),
  /** A published quote, counted into the quoted post's quotes_count (store/posts.ts). */
  quoteMark: entityLayout<QuoteMarkRecord>()({
    entity: entityTags.quoteMark,
    key: (m) => keys.quoteMark(m.quoted_post_id, m.quote_post_id),
  }),
  /** A like on a post or comment: the key names the target and the profile. */
  reaction: (key: ItemKey) =>
    entityLayout<ReactionRecord>()({
      entity: entityTags.reaction,
      key: () => key,
      paths: {
        /**
         * A profile's likes of posts and comments, by time (the target is in the item's key): its
         * export's likes.json and its erasure's path to them (one index write per like).
         */
        byProfile: {
          index: 'gsi1',
          partition: (r: Pick<ReactionRecord, 'profile_id'>) => keys.profileLikes(r.profile_id),
          sort: (r) => timeSortKey(r.created_at, key.pk),
        },
      },
    }),
  /** One post in one reader's inbox (the key names the reader, nothing names the author: see FeedEntry); gone with its post's 30 days. */
  feedEntry: (readerId: string) =>
    entityLayout<FeedEntryRecord>()({
      entity: entityTags.feedEntry,
      key: (e) => keys.feedEntry(readerId, e.published_at, e.post_id),
      paths: {
        /** A reader's inbox, by publication time. */
        inbox: { partition: (r: { reader_id: string }) => keys.feedInbox(r.reader_id) },
      },
      expiresAt: (e) => epochSeconds(e.published_at) + FEED_ENTRY_DAYS * 86_400,
    }),
  feedAuthorMode: entityLayout<FeedAuthorModeRecord>()({
    entity: entityTags.feedAuthorMode,
    key: (m) => keys.feedAuthorMode(m.author_id),
  }),
  media: entityLayout<MediaRecord>()({
    entity: entityTags.media,
    key: (m) => keys.media(m.id),
    paths: {
      /** A profile's media, uploads never processed included: its erasure's path to them (one index write per media write). */
      byProfile: {
        index: 'gsi1',
        partition: (m: Pick<MediaRecord, 'profile_id'>) => keys.profileMedia(m.profile_id),
        sort: (m) => timeSortKey(m.created_at, m.id),
      },
    },
    // As created: never attached. Attaching removes the expiry, a replacement sets it again
    // (store/media.ts); its REMOVE by TTL is what deletes the files.
    expiresAt: (m) => epochSeconds(m.created_at) + MEDIA_UNATTACHED_TTL_SECONDS,
  }),
  /** Which post shows a media as an image: a media is on one post at a time (its removal releases the media). */
  postImageClaim: entityLayout<PostImageClaim>()({
    entity: entityTags.postImageClaim,
    key: (c) => keys.postImageClaim(c.media_id),
  }),
  webhookEndpoint: entityLayout<WebhookEndpointRecord>()({
    entity: entityTags.webhookEndpoint,
    key: (e) => keys.webhookEndpoint(e.id),
    paths: {
      byWorkspace: {
        index: 'gsi1',
        partition: (e: Pick<WebhookEndpointRecord, 'workspace_id'>) => keys.workspaceWebhookEndpoints(e.workspace_id),
        sort: (e) => timeSortKey(e.created_at, e.id),
      },
    },
  }),
  webhookDelivery: entityLayout<StoredDelivery>()({
    entity: entityTags.webhookDelivery,
    key: (d) => keys.webhookDelivery(d.id),
    paths: {
      /** The delivery and its attempts: one partition (read with queryPathItems, two entities). */
      withAttempts: {
        partition: (d: Pick<DeliveryRecord, 'id'>) => keys.webhookDeliveryPartition(d.id),
      },
      /** A workspace's delivery activity, by last change. */
      activity: {
        index: 'gsi1',
        partition: (d: Pick<DeliveryRecord, 'workspace_id'>) => keys.workspaceWebhookDeliveries(d.workspace_id),
        sort: (d: DeliveryPlacement) => timeSortKey(d.updated_at, d.id),
      },
      /** The sweeper's shards of pending and delivering deliveries, by due time (a claim keeps the time it was due). */
      due: {
        index: 'gsi2',
        partition: (s: { due_shard: string }) => s.due_shard,
        params: (d: DeliveryPlacement) => ({ due_shard: keys.webhookDueShard(d.id) }),
        sort: (d: DeliveryPlacement) => {
          const slot = deliverySlotOf(d);
          return slot && 'due' in slot ? timeSortKey(slot.due, d.id) : undefined;
        },
      },
      /** An endpoint's failed deliveries, by last change (recovery, the failed filter). */
      failedOf: {
        index: 'gsi2',
        partition: (d: Pick<DeliveryRecord, 'webhook_endpoint_id'>) =>
          keys.endpointFailedDeliveries(d.webhook_endpoint_id),
        sort: (d: DeliveryPlacement) => (d.status === 'failed' ? timeSortKey(d.updated_at, d.id) : undefined),
      },
    },
    expiresAt: (d) => deliveryExpiresAt(d.updated_at),
  }),
  webhookAttempt: entityLayout<AttemptRecord>()({
    entity: entityTags.webhookAttempt,
    key: (a) => keys.webhookAttempt(a.delivery_id, a.number),
    expiresAt: (a) => deliveryExpiresAt(a.started_at),
  }),
  report: entityLayout<ReportRecord>()({
    entity: entityTags.report,
    key: (r) => keys.report(r.id),
    paths: {
      /** A profile's own reports, by creation. */
      byReporter: {
        index: 'gsi1',
        partition: (r: Pick<ReportRecord, 'reporter_profile_id'>) => keys.profileReports(r.reporter_profile_id),
        sort: (r) => timeSortKey(r.created_at, r.id),
      },
    },
  }),
  /** A reported subject's summary: its current round of reports, its snapshot, its place in the queue. */
  reportedSubject: entityLayout<StoredReportedSubject>()({
    entity: entityTags.reportedSubject,
    key: (s) => keys.reportedSubject(s.subject_type, s.subject_id),
    paths: {
      /** The moderation queue of one status (open, resolved), most reported first. */
      queue: {
        index: 'gsi1',
        partition: (s: Pick<ReportedSubjectRecord, 'status'>) => keys.moderationQueue(s.status),
        sort: queueRank,
      },
    },
  }),
  /** Exists while the reporter has an open report of the subject: one open report per reporter and subject. */
  openReportClaim: entityLayout<OpenReportClaim>()({
    entity: entityTags.openReportClaim,
    key: (c) => keys.openReportClaim(c.subject_type, c.subject_id, c.reporter_profile_id),
    paths: {
      /** The open reports of a subject. */
      ofSubject: {
        partition: (s: ReportSubject) => keys.reportedSubjectPartition(s.subject_type, s.subject_id),
        sortPrefix: keys.openReportSortKeyPrefix,
      },
    },
  }),
  // --- notifications (their records: notification-entities.ts) ---
  /**
   * The TTL is written when the notification is seen (store/notifications.ts): an unseen one is
   * kept until seen, so that a deletion never leaves the unread count off (reads hide it after
   * 90 days all the same).
   */
  notification: entityLayout<StoredNotification>()({
    entity: entityTags.notification,
    key: (n) => keys.notification(n.recipient_id, n.id),
    paths: {
      /** A profile's notifications by last update. */
      inbox: {
        index: 'gsi1',
        partition: (n: Pick<NotificationRecord, 'recipient_id'>) => keys.notificationInbox(n.recipient_id),
        sort: (n) => timeSortKey(n.updated_at, n.id),
      },
    },
    expiresAt: (n) => notificationExpiresAt(n.updated_at),
  }),
  notificationGroup: entityLayout<GroupStateRecord>()({
    entity: entityTags.notificationGroup,
    key: (g) => keys.notificationGroup(g.recipient_id, g.reason, g.subject_id),
    expiresAt: (g) => notificationExpiresAt(g.updated_at),
  }),
  notificationUnread: entityLayout<UnreadRecord>()({
    entity: entityTags.notificationUnread,
    key: (u) => keys.notificationUnread(u.recipient_id),
  }),
  notificationPreferences: entityLayout<PreferencesRecord>()({
    entity: entityTags.notificationPreferences,
    key: (p) => keys.notificationPreferences(p.recipient_id),
  }),
  /** A block, under the blocker's safety partition; its reverse item (blockedBy) is written with it. */
  block: entityLayout<BlockRecord>()({
    entity: entityTags.block,
    key: (b) => keys.block(b.blocker_profile_id, b.blocked_profile_id),
    paths: {
      /** The blocker's blocks, newest last by sort key (its list). */
      byBlocker: {
        index: 'gsi1',
        partition: (b: Pick<BlockRecord, 'blocker_profile_id'>) => keys.profileBlocks(b.blocker_profile_id),
        sort: (b) => timeSortKey(b.created_at, b.blocked_profile_id),
      },
      /** A profile's whole safety partition: blocks, reverse blocks and mutes (read with queryPathItems, three entities). */
      safetyOf: { partition: (p: { profile_id: string }) => keys.safety(p.profile_id) },
    },
  }),
  /** The same block under the blocked profile's safety partition. */
  blockedBy: entityLayout<BlockRecord>()({
    entity: entityTags.blockedBy,
    key: (b) => keys.blockedBy(b.blocked_profile_id, b.blocker_profile_id),
  }),
  /** A mute, under the muter's safety partition. */
  mute: entityLayout<MuteRecord>()({
    entity: entityTags.mute,
    key: (m) => keys.mute(m.muter_profile_id, m.muted_profile_id),
    paths: {
      /** The muter's mutes, newest last by sort key (its list). */
      byMuter: {
        index: 'gsi1',
        partition: (m: Pick<MuteRecord, 'muter_profile_id'>) => keys.profileMutes(m.muter_profile_id),
        sort: (m) => timeSortKey(m.created_at, m.muted_profile_id),
      },
      /** Who mutes the profile: its erasure's path to the mutes that name it (one index write per mute). */
      byMuted: {
        index: 'gsi2',
        partition: (m: Pick<MuteRecord, 'muted_profile_id'>) => keys.profileMutedBy(m.muted_profile_id),
        sort: (m) => timeSortKey(m.created_at, m.muter_profile_id),
      },
    },
  }),
  // --- operators of agent profiles (domain/operators.ts) ---
  operatorLink: entityLayout<OperatorLinkRecord>()({
    entity: entityTags.operatorLink,
    key: (l) => keys.operatorLink(l.id),
    paths: {
      /**
       * The links naming a profile as operator, any status: the erasure's way from an erased
       * operator to a link still pending (its agents list holds accepted links only).
       */
      byOperator: {
        index: 'gsi1',
        partition: (l: Pick<OperatorLinkRecord, 'operator_profile_id'>) => keys.operatorLinksOf(l.operator_profile_id),
        sort: (l) => timeSortKey(l.created_at, l.id),
      },
    },
  }),
  operatorSlot: entityLayout<OperatorSlotRecord>()({
    entity: entityTags.operatorSlot,
    key: (s) => keys.operatorSlot(s.agent_profile_id),
  }),
  operatedAgent: entityLayout<OperatedAgentRecord>()({
    entity: entityTags.operatedAgent,
    key: (a) => keys.operatedAgent(a.operator_profile_id, a.since, a.agent_profile_id),
    paths: {
      /** The operator's agents, by acceptance time (table partition: consistent, no index). */
      agentsOf: {
        partition: (a: Pick<OperatedAgentRecord, 'operator_profile_id'>) => keys.operatedAgents(a.operator_profile_id),
      },
    },
  }),
  // --- agent cards (domain/agent-cards.ts) ---
  agentDeclaration: entityLayout<AgentDeclarationRecord>()({
    entity: entityTags.agentDeclaration,
    key: (d) => keys.agentDeclaration(d.profile_id),
  }),
  agentCardSignature: entityLayout<AgentCardSignatureRecord>()({
    entity: entityTags.agentCardSignature,
    key: (s) => keys.agentCardSignature(s.profile_id),
  }),
  // --- OAuth 2.1 (domain/oauth.ts) ---
  oauthClient: entityLayout<OAuthClientRecord>()({
    entity: entityTags.oauthClient,
    key: (c) => keys.oauthClient(c.client_id),
  }),
  /** Kept a day past its 60 seconds, so that a second exchange still finds (and revokes) its grant. */
  oauthCode: entityLayout<OAuthCodeRecord>()({
    entity: entityTags.oauthCode,
    key: (c) => keys.oauthCode(c.code_hash),
    expiresAt: (c) => epochSeconds(c.expires_at) + 86_400,
  }),
  oauthGrant: entityLayout<OAuthGrantRecord>()({
    entity: entityTags.oauthGrant,
    key: (g) => keys.oauthGrant(g.id),
    paths: {
      /** A workspace's connected apps, newest first: only while not revoked. */
      byWorkspace: {
        index: 'gsi1',
        partition: (g: Pick<OAuthGrantRecord, 'workspace_id'>) => keys.workspaceOAuthGrants(g.workspace_id),
        sort: (g) => (g.revoked_at === null ? timeSortKey(g.created_at, g.id) : undefined),
      },
    },
  }),
  /** A used refresh token stays until its own expiry: presenting it again must still be recognised. */
  oauthToken: entityLayout<OAuthTokenRecord>()({
    entity: entityTags.oauthToken,
    key: (t) => keys.oauthToken(t.grant_id, t.kind, t.id),
    expiresAt: (t) => epochSeconds(t.expires_at),
  }),
  // --- accounts: mail and its tokens (domain/account-tokens.ts, domain/mail.ts) ---
  /** Kept a day past its expiry, so that a late use still reads as expired rather than unknown. */
  accountToken: entityLayout<AccountTokenRecord>()({
    entity: entityTags.accountToken,
    key: (t) => keys.accountToken(t.id),
    expiresAt: (t) => epochSeconds(t.expires_at) + 86_400,
  }),
  /** The one usable token of a purpose for an account (an address, for resets): a newer one takes it, a use empties it. */
  accountTokenSlot: entityLayout<TokenSlotRecord>()({
    entity: entityTags.accountTokenSlot,
    key: (s) => keys.accountTokenSlot(s.purpose, s.subject),
    expiresAt: (s) => epochSeconds(s.expires_at) + 86_400,
  }),
  mail: entityLayout<MailRecord>()({
    entity: entityTags.mail,
    key: (m) => keys.mail(m.id),
    paths: {
      /** The mails to one address: an account's erasure's path to them (one index write per mail). */
      toAddress: {
        index: 'gsi1',
        partition: (m: Pick<MailRecord, 'to'>) => keys.mailsTo(m.to),
        sort: (m) => timeSortKey(m.created_at, m.id),
      },
    },
    expiresAt: (m) => epochSeconds(m.created_at) + MAIL_RETENTION_SECONDS,
  }),
  /** An address SES reported a bounce or complaint for: the mail consumer sends it nothing more. */
  mailSuppression: entityLayout<MailSuppressionRecord>()({
    entity: entityTags.mailSuppression,
    key: (s) => keys.mailSuppression(s.email),
  }),
  // --- live (domain/live-events.ts): one item per event, on no index ---
  liveEvent: entityLayout<LoggedEvent>()({
    entity: entityTags.liveEvent,
    key: (e) => keys.liveEvent(e.profile_id, e.id),
    paths: {
      /** A profile's events in log order (table partition: consistent, no index). */
      log: { partition: (e: Pick<LiveEvent, 'profile_id'>) => keys.eventLog(e.profile_id) },
    },
    expiresAt: (e) => epochSeconds(e.created_at) + EVENT_LOG_DAYS * 86_400,
  }),
  /** A stream ticket, by the hash of its secret; spent (deleted) by the stream it opens. */
  streamTicket: entityLayout<StreamTicketRecord>()({
    entity: entityTags.streamTicket,
    key: (t) => keys.streamTicket(t.ticket_hash),
    expiresAt: (t) => epochSeconds(t.expires_at),
  }),

  // --- erasure (domain/erasure.ts) ---
  erasureJob: entityLayout<ErasureJobRecord>()({
    entity: entityTags.erasureJob,
    key: (j) => keys.erasureJob(j.id),
    paths: {
      /** The jobs of one status by when they run: what the local runtime resumes after a restart. */
      byStatus: {
        index: 'gsi1',
        partition: (j: Pick<ErasureJobRecord, 'status'>) => keys.erasureJobsOfStatus(j.status),
        sort: (j) => timeSortKey(j.scheduled_for, j.id),
      },
    },
  }),
  /** What a page of an erasure's first pass reached, for its second (store/erasure-reach.ts). */
  erasureReach: entityLayout<ErasureReachRecord>()({
    entity: entityTags.erasureReach,
    key: (r) => keys.erasureReach(r.job_id, r.page),
    paths: {
      ofJob: {
        partition: (r: Pick<ErasureReachRecord, 'job_id'>) => keys.erasureJobPartition(r.job_id),
        sortPrefix: keys.erasureReachPrefix,
      },
    },
  }),
  tombstone: entityLayout<TombstoneRecord>()({
    entity: entityTags.tombstone,
    key: (t) => keys.tombstone(t.id),
    expiresAt: (t) => epochSeconds(t.deleted_at) + TOMBSTONE_DAYS * 86_400,
  }),
  // --- data exports (domain/exports.ts) ---
  dataExport: entityLayout<ExportRecord>()({
    entity: entityTags.dataExport,
    key: (e) => keys.dataExport(e.id),
    paths: {
      /** A user's exports, by when they were asked for. */
      byUser: {
        index: 'gsi1',
        partition: (e: Pick<ExportRecord, 'user_id'>) => keys.userExports(e.user_id),
        sort: (e) => timeSortKey(e.created_at, e.id),
      },
      /**
       * The exports not settled yet, oldest first: what the local runtime queues again after a
       * restart (its queue is in memory; SQS keeps the messages in AWS). Sparse: a settled export
       * leaves it, so the index holds only the few running at a time.
       */
      pending: {
        index: 'gsi2',
        partition: () => keys.pendingExports(),
        sort: (e) => (e.status === 'pending' ? timeSortKey(e.created_at, e.id) : undefined),
      },
    },
    // Listed a day past the download's close, so an expired export still reads as one.
    expiresAt: (e) => epochSeconds(e.created_at) + EXPORT_DOWNLOAD_SECONDS + EXPORT_CLAIM_SECONDS + 86_400,
  }),
  /** The user's running export: one at a time. Its TTL frees a claim whose job died without settling. */
  exportClaim: entityLayout<ExportClaimRecord>()({
    entity: entityTags.exportClaim,
    key: (c) => keys.exportClaim(c.user_id),
    expiresAt: (c) => epochSeconds(c.created_at) + EXPORT_CLAIM_SECONDS,
  }),
};
